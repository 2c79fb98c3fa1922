import {
  type AcquireLeaseOptions,
  type AcquireLeaseResult,
  type CompactionState,
  type CompareAndSetOptions,
  type CompareAndSetResult,
  decodeCompactionEnvelope,
  InvalidConfigError,
  InvalidStoredStateError,
  type LeasingCompactionStore,
  type VersionedCompactionState,
} from '@spillway/core';
import {
  ACQUIRE_LEASE_SCRIPT,
  COMPARE_AND_SET_SCRIPT,
  DELETE_SCRIPT,
  RELEASE_LEASE_SCRIPT,
  RENEW_LEASE_SCRIPT,
  SET_SCRIPT,
} from './lua-scripts';
import { type RedisClientLike, type RedisCommands, sha1Hex, toRedisCommands } from './redis-client';

/** How many times a compare-and-set checks the value again when another writer changed it meanwhile. */
const MAX_CHECKS = 5;

/** Options of {@link RedisCompactionStore}. */
export interface RedisCompactionStoreOptions {
  /**
   * A connected client: `ioredis` (`Redis` or `Cluster`), `redis` v4 or later (`createClient()` after
   * `connect()`, or `createCluster()`), or anything with `get(key)` and `eval(script, keys, args)`
   * such as `@upstash/redis`. The store never connects, disconnects or configures it.
   */
  client: RedisClientLike;
  /**
   * Prefix of every key. A conversation's keys are `<prefix>{<conversationId>}` (the state),
   * `…:lease` and `…:fence`; the braces keep them in one Redis Cluster slot.
   * @default 'spillway:'
   */
  keyPrefix?: string;
  /**
   * How long a conversation's state is kept after its last write, in seconds. `0` keeps it until
   * deleted.
   * @default 2_592_000 (30 days)
   */
  ttlSeconds?: number;
}

/**
 * A compaction store in Redis, shared by every server instance: versioned compare-and-set writes
 * (a late writer never overwrites a newer state) and a per-conversation lease with expiry and a
 * fencing token, each one Lua script (atomic in Redis). Values are JSON envelopes carrying their
 * schema; a value under the key that `read()` rejects is reported (`InvalidStoredStateError`) and
 * never overwritten by a compare-and-set, whatever revision it carries. Damaged lease bookkeeping (a
 * counter that is not a number, a lease record the store did not write) is repaired on the next
 * lease grant, with fencing tokens still growing.
 *
 * @example
 * import Redis from 'ioredis';
 * const store = new RedisCompactionStore({ client: new Redis(process.env.REDIS_URL) });
 * const compactor = createCompactor({ store, summarizer });
 *
 * @throws {InvalidConfigError} for a bad option.
 */
export class RedisCompactionStore implements LeasingCompactionStore {
  readonly #commands: RedisCommands;
  readonly #keyPrefix: string;
  readonly #ttlMs: number;

  constructor({ client, keyPrefix = 'spillway:', ttlSeconds = 2_592_000 }: RedisCompactionStoreOptions) {
    if (client === null || typeof client !== 'object') {
      throw new InvalidConfigError({ option: 'client', value: client, message: 'must be a Redis client' });
    }
    try {
      this.#commands = toRedisCommands(client);
    } catch (error) {
      throw new InvalidConfigError({ option: 'client', value: client, message: (error as Error).message });
    }
    if (typeof keyPrefix !== 'string') {
      throw new InvalidConfigError({ option: 'keyPrefix', value: keyPrefix, message: 'must be a string' });
    }
    if (typeof ttlSeconds !== 'number' || !Number.isFinite(ttlSeconds) || ttlSeconds < 0) {
      throw new InvalidConfigError({
        option: 'ttlSeconds',
        value: ttlSeconds,
        message: 'must be a number of seconds, 0 (no expiry) or more',
      });
    }
    this.#keyPrefix = keyPrefix;
    this.#ttlMs = Math.round(ttlSeconds * 1000);
  }

  /** The keys of a conversation: state, lease, fencing counter (one hash slot). */
  keys(conversationId: string): [state: string, lease: string, fence: string] {
    const state = `${this.#keyPrefix}{${conversationId}}`;
    return [state, `${state}:lease`, `${state}:fence`];
  }

  async get(conversationId: string): Promise<CompactionState | undefined> {
    return (await this.read(conversationId))?.state;
  }

  async read(conversationId: string): Promise<VersionedCompactionState | undefined> {
    const value = await this.#getState(this.keys(conversationId)[0]);
    if (value === null || value === undefined) return undefined;
    return decodeCompactionEnvelope(value);
  }

  async set(conversationId: string, state: CompactionState): Promise<void> {
    await this.#commands.run(SET_SCRIPT, this.keys(conversationId), [
      JSON.stringify(state),
      String(this.#ttlMs),
    ]);
  }

  async compareAndSet(
    conversationId: string,
    state: CompactionState,
    { expectedRevision, fencingToken }: CompareAndSetOptions,
  ): Promise<CompareAndSetResult> {
    const keys = this.keys(conversationId);
    const json = JSON.stringify(state);
    // The value is checked here, by the code `read()` uses; the script writes only over the very
    // value that was checked. Another writer changing it in between sends us round again.
    for (let attempt = 1; ; attempt++) {
      const seen = await this.#inspect(keys[0]);
      const reply = await this.#commands.run(COMPARE_AND_SET_SCRIPT, keys, [
        json,
        String(expectedRevision),
        fencingToken === undefined ? '' : String(fencingToken),
        String(this.#ttlMs),
        seen.sha1,
        seen.revision === undefined ? '' : String(seen.revision),
      ]);
      const [ok, detail] = asPair(reply);
      if (Number(ok) === 1) return { ok: true, revision: Number(detail) };
      const reason = String(detail);
      if (reason === 'changed') {
        if (attempt < MAX_CHECKS) continue;
        return { ok: false, reason: 'conflict' };
      }
      if (reason === 'conflict' || reason === 'fenced' || reason === 'unreadable')
        return { ok: false, reason };
      throw new Error(`Unexpected reply from the compare-and-set script: ${JSON.stringify(reply)}`);
    }
  }

  /** The SHA-1 of the value under the state key ('' when none) and its revision (`undefined`: unreadable). */
  async #inspect(key: string): Promise<{ sha1: string; revision: number | undefined }> {
    let value: unknown;
    try {
      value = await this.#getState(key);
    } catch (error) {
      if (InvalidStoredStateError.isInstance(error)) return { sha1: '', revision: undefined };
      throw error;
    }
    if (value === null || value === undefined) return { sha1: '', revision: 0 };
    // A client that parses JSON itself hands back an object: its canonical text is what Spillway wrote.
    const sha1 = await sha1Hex(typeof value === 'string' ? value : JSON.stringify(value));
    try {
      return { sha1, revision: decodeCompactionEnvelope(value).revision };
    } catch (error) {
      if (InvalidStoredStateError.isInstance(error)) return { sha1, revision: undefined };
      throw error;
    }
  }

  /** GET of the state key; a key of another type is an unreadable value, not a Redis failure. */
  async #getState(key: string): Promise<unknown> {
    try {
      return await this.#commands.get(key);
    } catch (error) {
      if (!/WRONGTYPE/.test(error instanceof Error ? error.message : String(error))) throw error;
      throw new InvalidStoredStateError({
        reason: 'not-json',
        message: 'The key holds a Redis type other than a string',
      });
    }
  }

  async delete(conversationId: string): Promise<void> {
    await this.#commands.run(DELETE_SCRIPT, this.keys(conversationId), []);
  }

  async acquireLease(
    conversationId: string,
    { holder, ttlMs }: AcquireLeaseOptions,
  ): Promise<AcquireLeaseResult> {
    const before = Date.now();
    const reply = await this.#commands.run(ACQUIRE_LEASE_SCRIPT, this.keys(conversationId), [
      holder,
      String(Math.max(1, Math.ceil(ttlMs))),
      String(this.#ttlMs),
    ]);
    const [granted, value, remaining] = asTriple(reply);
    if (Number(granted) === 1) {
      return {
        acquired: true,
        lease: { token: Number(value), holder, expiresAt: before + Number(remaining) },
      };
    }
    const text = String(value);
    const separator = text.indexOf(':');
    return {
      acquired: false,
      current: {
        token: Number(text.slice(0, separator)),
        holder: text.slice(separator + 1),
        expiresAt: Date.now() + Math.max(0, Number(remaining)),
      },
    };
  }

  async renewLease(
    conversationId: string,
    { token, ttlMs }: { token: number; ttlMs: number },
  ): Promise<boolean> {
    const reply = await this.#commands.run(RENEW_LEASE_SCRIPT, this.keys(conversationId), [
      String(token),
      String(Math.max(1, Math.ceil(ttlMs))),
    ]);
    return Number(reply) === 1;
  }

  async releaseLease(conversationId: string, { token }: { token: number }): Promise<void> {
    await this.#commands.run(RELEASE_LEASE_SCRIPT, this.keys(conversationId), [String(token)]);
  }
}

function asPair(reply: unknown): [unknown, unknown] {
  if (!Array.isArray(reply) || reply.length < 2) {
    throw new Error(`Unexpected reply from a Spillway script: ${JSON.stringify(reply)}`);
  }
  return [reply[0], reply[1]];
}

function asTriple(reply: unknown): [unknown, unknown, unknown] {
  if (!Array.isArray(reply) || reply.length < 3) {
    throw new Error(`Unexpected reply from a Spillway script: ${JSON.stringify(reply)}`);
  }
  return [reply[0], reply[1], reply[2]];
}
