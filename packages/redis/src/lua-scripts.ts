/**
 * The Lua scripts behind RedisCompactionStore. Each runs atomically in Redis. Keys, always in this
 * order and in one hash slot (the conversation id is the hash tag): KEYS[1] the state envelope,
 * KEYS[2] the lease (`<token>:<holder>`, expiring), KEYS[3] the fencing counter (last token granted).
 *
 * The envelope is written as `{"spillway":1,"revision":N,"state":<state JSON>}` with the state's
 * JSON passed through untouched; the scripts read only its fixed prefix, so a write costs the same
 * whatever the summary's size. A value without that prefix is not Spillway's (or is corrupt, or
 * from a newer schema) and is never overwritten by a compare-and-set.
 */

/** A script and its SHA-1 (for EVALSHA), computed on first use. */
export interface LuaScript {
  readonly name: string;
  readonly source: string;
}

const envelopeRevision = `
local function envelope_revision(value)
  if not value then return 0 end
  local schema, revision = string.match(value, '^{"spillway":(%d+),"revision":(%d+),"state":{')
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

/** ARGV: state JSON, ttl ms (0: none). Returns the new revision. Overwrites whatever was there. */
export const SET_SCRIPT: LuaScript = {
  name: 'set',
  source: `${envelopeRevision}
local revision = envelope_revision(redis.call('GET', KEYS[1])) or 0
write_envelope(KEYS[1], revision + 1, ARGV[1], ARGV[2])
return revision + 1
`,
};

/**
 * ARGV: state JSON, expected revision, fencing token ('' for none), ttl ms.
 * Returns {1, revision} or {0, 'conflict' | 'fenced' | 'unreadable'}.
 */
export const COMPARE_AND_SET_SCRIPT: LuaScript = {
  name: 'compare-and-set',
  source: `${envelopeRevision}
if ARGV[3] ~= '' then
  local fence = redis.call('GET', KEYS[3])
  if not fence or fence ~= ARGV[3] then return {0, 'fenced'} end
end
local revision = envelope_revision(redis.call('GET', KEYS[1]))
if revision == nil then return {0, 'unreadable'} end
if revision ~= tonumber(ARGV[2]) then return {0, 'conflict'} end
write_envelope(KEYS[1], revision + 1, ARGV[1], ARGV[4])
return {1, revision + 1}
`,
};

/**
 * ARGV: holder, lease ttl ms, fence ttl ms (0: none).
 * Returns {1, token, ttl} when granted, or {0, '<token>:<holder>', remaining ms} when held.
 */
export const ACQUIRE_LEASE_SCRIPT: LuaScript = {
  name: 'acquire-lease',
  source: `
local current = redis.call('GET', KEYS[2])
if current then
  local remaining = redis.call('PTTL', KEYS[2])
  -- Only a lease of ours that expires holds; anything else under the key (corrupt, or without an
  -- expiry) would block the conversation forever, so it is replaced.
  if string.match(current, '^%d+:') and remaining > 0 then
    return {0, current, remaining}
  end
end
local token = redis.call('INCR', KEYS[3])
if tonumber(ARGV[3]) > 0 then
  redis.call('PEXPIRE', KEYS[3], math.max(tonumber(ARGV[3]), tonumber(ARGV[2])))
end
redis.call('SET', KEYS[2], string.format('%d', token) .. ':' .. ARGV[1], 'PX', ARGV[2])
return {1, token, tonumber(ARGV[2])}
`,
};

/** ARGV: token, ttl ms. Returns 1 when extended, 0 when the lease is not held with that token. */
export const RENEW_LEASE_SCRIPT: LuaScript = {
  name: 'renew-lease',
  source: `
local current = redis.call('GET', KEYS[2])
if current and string.match(current, '^(%d+):') == ARGV[1] then
  redis.call('PEXPIRE', KEYS[2], ARGV[2])
  return 1
end
return 0
`,
};

/** ARGV: token. Deletes the lease if it is held with that token. */
export const RELEASE_LEASE_SCRIPT: LuaScript = {
  name: 'release-lease',
  source: `
local current = redis.call('GET', KEYS[2])
if current and string.match(current, '^(%d+):') == ARGV[1] then
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
