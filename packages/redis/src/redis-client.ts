import type { LuaScript } from './lua-scripts';

/**
 * The smallest Redis client the store can use: `get` and `eval(script, keys, args)`, with an
 * optional `evalsha` of the same shape. `@upstash/redis`'s `Redis` has exactly this shape, and any
 * other client can be wrapped into it in a few lines.
 */
export interface RedisScriptClient {
  get(key: string): Promise<unknown>;
  eval(script: string, keys: string[], args: string[]): Promise<unknown>;
  evalsha?(sha1: string, keys: string[], args: string[]): Promise<unknown>;
}

/** The part of an `ioredis` client (`Redis` or `Cluster`) the store calls. */
export interface IoRedisLike {
  get(key: string): Promise<string | null>;
  eval(script: string, numberOfKeys: number, ...keysAndArgs: string[]): Promise<unknown>;
  evalsha(sha1: string, numberOfKeys: number, ...keysAndArgs: string[]): Promise<unknown>;
  defineCommand: (...args: never[]) => unknown;
}

/** The part of a `redis` (node-redis v4 and later) client or cluster the store calls. */
export interface NodeRedisLike {
  get(key: string): Promise<unknown>;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  evalSha(sha1: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

/** A client {@link RedisCompactionStore} accepts: ioredis, node-redis (v4+), or the script shape. */
export type RedisClientLike = IoRedisLike | NodeRedisLike | RedisScriptClient;

/** What the store runs commands through. */
export interface RedisCommands {
  get(key: string): Promise<unknown>;
  run(script: LuaScript, keys: string[], args: string[]): Promise<unknown>;
}

const hashes = new Map<string, Promise<string>>();

/** SHA-1 of a text's UTF-8 bytes in hex, with Web Crypto (Node 20+, edge runtimes); what Redis's `sha1hex` gives. */
export async function sha1Hex(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-1', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** SHA-1 of a script, computed once. */
function sha1Of(source: string): Promise<string> {
  let hash = hashes.get(source);
  if (hash === undefined) {
    hash = sha1Hex(source);
    hashes.set(source, hash);
  }
  return hash;
}

function isMissingScript(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return message.includes('NOSCRIPT');
}

/** Adapts a supported client: EVALSHA first, EVAL (which caches the script) when Redis lacks it. */
export function toRedisCommands(client: RedisClientLike): RedisCommands {
  const candidate = client as Partial<IoRedisLike & NodeRedisLike & RedisScriptClient>;
  if (typeof candidate.get !== 'function' || typeof candidate.eval !== 'function') {
    throw new TypeError('client must be an ioredis or node-redis client, or have get() and eval()');
  }
  let evaluate: (source: string, keys: string[], args: string[]) => Promise<unknown>;
  let evaluateSha: ((sha1: string, keys: string[], args: string[]) => Promise<unknown>) | undefined;
  if (typeof candidate.evalSha === 'function') {
    const nodeRedis = client as NodeRedisLike;
    evaluate = (source, keys, args) => nodeRedis.eval(source, { keys, arguments: args });
    evaluateSha = (sha1, keys, args) => nodeRedis.evalSha(sha1, { keys, arguments: args });
  } else if (typeof candidate.defineCommand === 'function') {
    const ioRedis = client as IoRedisLike;
    evaluate = (source, keys, args) => ioRedis.eval(source, keys.length, ...keys, ...args);
    evaluateSha = (sha1, keys, args) => ioRedis.evalsha(sha1, keys.length, ...keys, ...args);
  } else {
    const generic = client as RedisScriptClient;
    evaluate = (source, keys, args) => generic.eval(source, keys, args);
    if (typeof generic.evalsha === 'function') {
      const evalsha = generic.evalsha.bind(generic);
      evaluateSha = (sha1, keys, args) => evalsha(sha1, keys, args);
    }
  }
  return {
    get: (key) => candidate.get!(key),
    async run(script, keys, args) {
      if (evaluateSha === undefined) return evaluate(script.source, keys, args);
      const sha1 = await sha1Of(script.source);
      try {
        return await evaluateSha(sha1, keys, args);
      } catch (error) {
        if (!isMissingScript(error)) throw error;
        return evaluate(script.source, keys, args);
      }
    },
  };
}
