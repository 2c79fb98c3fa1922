import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, describe, inject, it } from 'vitest';
import {
  holderKilledMidSummary,
  oneRunPerCrossing,
  serverStopsMidRun,
  staleHolderIsFenced,
} from '../../../core/test/multi-instance/scenarios';
import { RedisCompactionStore } from '../../src/index';
import { startRedis } from '../redis-server';

const storeModule = fileURLToPath(new URL('./redis-store-module.ts', import.meta.url));
const url = inject('redisUrl');
const client = new Redis(url);
const backend = {
  storeModule,
  env: { REDIS_URL: url },
  store: new RedisCompactionStore({ client, keyPrefix: 'e2e:' }),
};

afterAll(async () => {
  await client.quit();
});

describe('3 Node processes sharing one real Redis', () => {
  it('3 × 50 concurrent requests over the threshold: one summarizer run per crossing, one state everywhere, no lost update', () =>
    oneRunPerCrossing(backend));

  it('the lease holder killed mid-summary: another instance completes it after the lease expires', () =>
    holderKilledMidSummary(backend));

  it("a stale holder's late write is fenced", () => staleHolderIsFenced(backend));

  it('Redis stopped mid-run and started again: every request still succeeds', async () => {
    const redis = await startRedis();
    const own = new Redis(redis.url, { lazyConnect: true });
    try {
      await serverStopsMidRun({
        storeModule,
        env: { REDIS_URL: redis.url },
        store: new RedisCompactionStore({ client: own }),
        stop: () => redis.stop(),
        restart: () => redis.restart(),
      });
    } finally {
      own.disconnect();
      await redis.stop().catch(() => {});
    }
  });
});
