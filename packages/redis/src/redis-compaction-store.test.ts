import {
  type CompactionStore,
  conformanceState,
  createCompactor,
  type LeaseDamage,
  storeConformanceCases,
} from '@spillway/core';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { createClient as createClient4 } from 'redis4';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { RedisScriptClient } from './redis-client';
import { RedisCompactionStore } from './redis-compaction-store';

const url = inject('redisUrl');

/** The other clients in the same shape as `@upstash/redis` (get, eval(script, keys, args), evalsha). */
function scriptShape(client: Redis): RedisScriptClient {
  return {
    get: (key) => client.get(key),
    eval: (script, keys, args) => client.eval(script, keys.length, ...keys, ...args),
    evalsha: (sha1, keys, args) => client.evalsha(sha1, keys.length, ...keys, ...args),
  };
}

const clients = {
  ioredis: async () => {
    const client = new Redis(url, { lazyConnect: true });
    await client.connect();
    return { client, close: () => client.quit().then(() => {}) };
  },
  'redis (node-redis 6)': async () => {
    const client = createClient({ url });
    await client.connect();
    return { client, close: () => client.quit().then(() => {}) };
  },
  'redis@4 (node-redis 4)': async () => {
    const client = createClient4({ url });
    await client.connect();
    return { client, close: () => client.quit().then(() => {}) };
  },
  'get/eval script shape (the @upstash/redis shape)': async () => {
    const inner = new Redis(url, { lazyConnect: true });
    await inner.connect();
    return { client: scriptShape(inner), close: () => inner.quit().then(() => {}) };
  },
};

describe.each(Object.entries(clients))('RedisCompactionStore with %s', (_name, connect) => {
  let connection: Awaited<ReturnType<typeof connect>>;
  let raw: Redis;
  beforeAll(async () => {
    connection = await connect();
    raw = new Redis(url);
  });
  afterAll(async () => {
    await connection.close();
    await raw.quit();
  });

  const stateKey = (store: CompactionStore, id: string) => (store as RedisCompactionStore).keys(id)[0];
  const cases = storeConformanceCases({
    createStore: () => new RedisCompactionStore({ client: connection.client, keyPrefix: 'conformance:' }),
    writeRawValue: async (store, id, value) => {
      await raw.set(stateKey(store, id), value);
    },
    readRawValue: async (store, id) => (await raw.get(stateKey(store, id))) ?? undefined,
    writeRawState: async (store, id, { stateText, revision }) => {
      await raw.set(stateKey(store, id), `{"spillway":1,"revision":${revision},"state":${stateText}}`);
    },
    damageLease: async (store, id, damage) => {
      const [, lease, fence] = (store as RedisCompactionStore).keys(id);
      const damages: Record<LeaseDamage, () => Promise<unknown>> = {
        'counter-not-a-number': () => raw.set(fence, 'abc'),
        'counter-negative': () => raw.set(fence, '-5'),
        'counter-out-of-range': () => raw.set(fence, '99999999999999999999'),
        'counter-lost': () => raw.del(fence),
        'counter-wrong-type': () => raw.multi().del(fence).hset(fence, 'token', '1').exec(),
        'lease-unreadable': () => raw.set(lease, 'garbage', 'PX', 60_000),
        'lease-never-expires': async () => raw.set(lease, `${await raw.get(fence)}:ghost`),
        'lease-not-granted': () => raw.set(lease, '999999:ghost', 'PX', 60_000),
        'lease-wrong-type': () => raw.multi().del(lease).rpush(lease, 'x').pexpire(lease, 60_000).exec(),
      };
      await damages[damage]();
      return true;
    },
  });
  for (const testCase of cases) {
    it(`${testCase.capability}: ${testCase.name}`, async (context) => {
      if ((await testCase.run()) === 'skipped') context.skip();
    });
  }

  it('keeps the envelope with its schema under the prefixed key, with the TTL', async () => {
    const store = new RedisCompactionStore({ client: connection.client, keyPrefix: 'ttl:', ttlSeconds: 60 });
    const id = `ttl-${Math.random()}`;
    await store.set(id, conformanceState(4));
    const [key] = store.keys(id);
    expect(key).toBe(`ttl:{${id}}`);
    expect(JSON.parse((await raw.get(key))!)).toEqual({
      spillway: 1,
      revision: 1,
      state: conformanceState(4),
    });
    const ttl = await raw.pttl(key);
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
    const forever = new RedisCompactionStore({ client: connection.client, keyPrefix: 'ttl:', ttlSeconds: 0 });
    await forever.set(id, conformanceState(5));
    expect(await raw.pttl(key)).toBe(-1);
    await store.delete(id);
    expect(await raw.exists(key, `${key}:lease`, `${key}:fence`)).toBe(0);
  });
});

describe('RedisCompactionStore', () => {
  it('loads its scripts again after SCRIPT FLUSH', async () => {
    const client = new Redis(url);
    const store = new RedisCompactionStore({ client, keyPrefix: 'flush:' });
    await store.set('a', conformanceState(1));
    await client.script('FLUSH');
    const write = await store.compareAndSet('a', conformanceState(2), { expectedRevision: 1 });
    expect(write).toEqual({ ok: true, revision: 2 });
    await store.delete('a');
    await client.quit();
  });

  it('a compactor on it applies one summary from another compactor on another connection', async () => {
    const one = new Redis(url);
    const two = createClient({ url });
    await two.connect();
    const messages = Array.from({ length: 24 }, (_, index) => ({
      role: index % 2 === 0 ? ('user' as const) : ('assistant' as const),
      content: `Message ${index}: ${'words '.repeat(150)}`,
    }));
    const contextWindow = Math.floor(createCompactor().estimator.countMessages(messages) / 0.9);
    const id = `apply-${Math.random()}`;
    const summarizer = () => 'The user and assistant talked about words.';
    const first = createCompactor({
      store: new RedisCompactionStore({ client: one }),
      summarizer,
      contextWindow,
    });
    const second = createCompactor({
      store: new RedisCompactionStore({ client: two }),
      summarizer,
      contextWindow,
    });
    const made = await first.prepare(messages, { conversationId: id });
    expect(made.stateChanged).toBe(true);
    const applied = await second.prepare([...messages, { role: 'user', content: 'next' }], {
      conversationId: id,
    });
    expect(applied.actions).toContain('apply-summary');
    expect(applied.state).toEqual(made.state);
    await new RedisCompactionStore({ client: one }).delete(id);
    await one.quit();
    await two.quit();
  });

  it('a corrupt or never-expiring value under the lease key does not block the conversation', async () => {
    const client = new Redis(url);
    const store = new RedisCompactionStore({ client, keyPrefix: 'lease-garbage:' });
    for (const value of ['garbage', '7:holder-without-expiry']) {
      const [, lease] = store.keys('c');
      await client.set(lease, value);
      const taken = await store.acquireLease('c', { holder: 'me', ttlMs: 10_000 });
      expect(taken.acquired).toBe(true);
      expect(await client.pttl(lease)).toBeGreaterThan(0);
      await store.delete('c');
    }
    await client.quit();
  });

  it('a key of another Redis type is an unreadable value: reported, refused, never overwritten by compareAndSet', async () => {
    const client = new Redis(url);
    const store = new RedisCompactionStore({ client, keyPrefix: 'wrong-type:' });
    const [key] = store.keys('h');
    await client.hset(key, 'spillway', '1');
    await expect(store.read('h')).rejects.toMatchObject({
      name: 'InvalidStoredStateError',
      reason: 'not-json',
    });
    for (const expectedRevision of [0, 1]) {
      expect(await store.compareAndSet('h', conformanceState(1), { expectedRevision })).toEqual({
        ok: false,
        reason: 'unreadable',
      });
    }
    expect(await client.type(key)).toBe('hash');
    await store.set('h', conformanceState(2)); // a plain set is the explicit overwrite
    expect(await store.get('h')).toEqual(conformanceState(2));
    await store.delete('h');
    await client.quit();
  });

  it('compareAndSet writes only over the value it checked: a value changed in between is checked again', async () => {
    const client = new Redis(url);
    const raw = new Redis(url);
    const writer = new RedisCompactionStore({ client, keyPrefix: 'changed:' });
    await writer.set('c', conformanceState(1));
    const [key] = writer.keys('c');
    const corrupt = '{"spillway":1,"revision":1,"state":{"version":1,"summaries":"changed meanwhile"}}';
    let gets = 0;
    // The @upstash/redis shape, with a foreign writer slipping in right after the store's first GET.
    const shape: RedisScriptClient = {
      get: async (name) => {
        const value = await client.get(name);
        if (name === key && gets++ === 0) await raw.set(key, corrupt);
        return value;
      },
      eval: (script, keys, args) => client.eval(script, keys.length, ...keys, ...args),
    };
    const store = new RedisCompactionStore({ keyPrefix: 'changed:', client: shape });
    const write = await store.compareAndSet('c', conformanceState(2), { expectedRevision: 1 });
    expect(write).toEqual({ ok: false, reason: 'unreadable' });
    expect(gets).toBe(2);
    expect(await raw.get(key)).toBe(corrupt);
    await writer.delete('c');
    await Promise.all([client.quit(), raw.quit()]);
  });

  it('rejects bad options', () => {
    expect(() => new RedisCompactionStore({ client: {} as never })).toThrow(/client/);
    const client = { get: async () => null, eval: async () => null };
    expect(() => new RedisCompactionStore({ client, ttlSeconds: -1 })).toThrow(/ttlSeconds/);
    expect(() => new RedisCompactionStore({ client, keyPrefix: 3 as never })).toThrow(/keyPrefix/);
  });
});
