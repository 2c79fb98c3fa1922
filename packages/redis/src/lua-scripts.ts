/**
 * The Lua scripts behind RedisCompactionStore. Each runs atomically in Redis. Keys, always in this
 * order and in one hash slot (the conversation id is the hash tag): KEYS[1] the state envelope,
 * KEYS[2] the lease (`<token>:<holder>`, expiring), KEYS[3] the fencing counter (last token granted).
 *
 * The envelope is written as `{"spillway":1,"revision":N,"state":<state JSON>}` with the state's
 * JSON passed through untouched. Whether a stored value is a state this release reads is decided in
 * JavaScript, by the same code `read()` uses; the compare-and-set script then writes only over the
 * very value that was checked (its SHA-1), so a value `read()` rejects is never overwritten, and a
 * write costs the same whatever the summary's size.
 */

/** A script and its SHA-1 (for EVALSHA), computed on first use. */
export interface LuaScript {
  readonly name: string;
  readonly source: string;
}

/** `read(key)`: the string under the key, `false` when there is none, `nil` when it holds another type. */
const readKey = `
local function read(key)
  local value = redis.pcall('GET', key)
  if type(value) == 'table' and value.err then return nil end
  return value
end
`;

const envelope = `${readKey}
local function envelope_revision(value)
  if not value then return 0 end
  local schema, revision = string.match(value, '^{"spillway":(%d+),"revision":(%d+),"state":')
  if schema ~= '1' or not revision then return nil end
  return tonumber(revision)
end
local function write_envelope(key, revision, state, ttl)
  local value = '{"spillway":1,"revision":' .. string.format('%d', revision) .. ',"state":' .. state .. '}'
  if tonumber(ttl) > 0 then
    redis.call('SET', key, value, 'PX', ttl)
  else
    redis.call('SET', key, value)
  end
end
`;

/**
 * `token_of(text)`: the whole number a counter or lease token holds, or `nil` when it is not one
 * the store can have written: not digits, or beyond the largest token JavaScript holds exactly.
 */
const tokens = `${readKey}
local MAX_TOKEN = 9007199254740990
local function token_of(text)
  if type(text) ~= 'string' or #text > 16 or not string.match(text, '^%d+$') then return nil end
  local token = tonumber(text)
  if token > MAX_TOKEN then return nil end
  return token
end
local function lease_token(value)
  if type(value) ~= 'string' then return nil end
  return token_of(string.match(value, '^(%d+):'))
end
`;

/** ARGV: state JSON, ttl ms (0: none). Returns the new revision. Overwrites whatever was there. */
export const SET_SCRIPT: LuaScript = {
  name: 'set',
  source: `${envelope}
local revision = envelope_revision(read(KEYS[1])) or 0
write_envelope(KEYS[1], revision + 1, ARGV[1], ARGV[2])
return revision + 1
`,
};

/**
 * ARGV: state JSON, expected revision, fencing token ('' for none), ttl ms, the SHA-1 of the value
 * the client checked ('' when there was none), the revision that value carries ('' when the client
 * could not read it). Returns {1, revision}, or {0, 'fenced' | 'changed' | 'unreadable' |
 * 'conflict'}; `changed`: the value is no longer the one the client checked (check it again).
 */
export const COMPARE_AND_SET_SCRIPT: LuaScript = {
  name: 'compare-and-set',
  source: `${envelope}
if ARGV[3] ~= '' then
  local fence = read(KEYS[3])
  if not fence or fence ~= ARGV[3] then return {0, 'fenced'} end
end
local current = read(KEYS[1])
if current == nil then return {0, 'unreadable'} end
local seen = ''
if current then seen = redis.sha1hex(current) end
if seen ~= ARGV[5] then return {0, 'changed'} end
if ARGV[6] == '' then return {0, 'unreadable'} end
local revision = tonumber(ARGV[6])
if revision ~= tonumber(ARGV[2]) then return {0, 'conflict'} end
write_envelope(KEYS[1], revision + 1, ARGV[1], ARGV[4])
return {1, revision + 1}
`,
};

/**
 * ARGV: holder, lease ttl ms, fence ttl ms (0: none).
 * Returns {1, token, ttl} when granted, or {0, '<token>:<holder>', remaining ms} when held.
 *
 * A lease holds only while its record is one the store wrote, expires, and carries the token the
 * counter last granted: anything else cannot back a write, so it is replaced at once. A counter
 * that is not a whole number in range (or a key of another type) is replaced by one above every
 * token it can have granted: the current time in milliseconds, which a counter that counts grants
 * never reaches. Tokens therefore keep growing past any damage.
 */
export const ACQUIRE_LEASE_SCRIPT: LuaScript = {
  name: 'acquire-lease',
  source: `${tokens}
if redis.replicate_commands then redis.replicate_commands() end
local counter = read(KEYS[3])
local fence = 0
if counter ~= false then fence = token_of(counter) end
local current = read(KEYS[2])
local held = lease_token(current)
if held and fence and held == fence and held > 0 then
  local remaining = redis.call('PTTL', KEYS[2])
  if remaining > 0 then return {0, current, remaining} end
end
local last = math.max(fence or 0, held or 0)
if not fence then
  local now = redis.call('TIME')
  last = math.max(last, tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000))
end
local token = string.format('%d', last + 1)
redis.call('SET', KEYS[3], token)
if tonumber(ARGV[3]) > 0 then
  redis.call('PEXPIRE', KEYS[3], math.max(tonumber(ARGV[3]), tonumber(ARGV[2])))
end
redis.call('SET', KEYS[2], token .. ':' .. ARGV[1], 'PX', ARGV[2])
return {1, last + 1, tonumber(ARGV[2])}
`,
};

/** ARGV: token, ttl ms. Returns 1 when extended, 0 when the lease is not held with that token. */
export const RENEW_LEASE_SCRIPT: LuaScript = {
  name: 'renew-lease',
  source: `${tokens}
local current = read(KEYS[2])
if lease_token(current) == tonumber(ARGV[1]) and read(KEYS[3]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[2], ARGV[2])
  return 1
end
return 0
`,
};

/** ARGV: token. Deletes the lease if it is held with that token. */
export const RELEASE_LEASE_SCRIPT: LuaScript = {
  name: 'release-lease',
  source: `${tokens}
if lease_token(read(KEYS[2])) == tonumber(ARGV[1]) then
  redis.call('DEL', KEYS[2])
  return 1
end
return 0
`,
};

/** Deletes the state, the lease and the fencing counter. */
export const DELETE_SCRIPT: LuaScript = {
  name: 'delete',
  source: `
return redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
`,
};
