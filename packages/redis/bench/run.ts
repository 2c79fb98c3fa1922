/**
 * `pnpm bench` for @spillway/redis: what a request pays for keeping its state in a real Redis on
 * loopback (a redis-server started here from the system binary) next to the in-process memory store,
 * measured in the same run. Goal: at most 1 ms added at p50.
 */
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { measureStoreOverhead } from '../../core/bench/shared/store-overhead';
import { RedisCompactionStore } from '../src/index';
import { startRedis } from '../test/redis-server';

const redis = await startRedis();
const ioredis = new Redis(redis.url);
const nodeRedis = createClient({ url: redis.url });
await nodeRedis.connect();
try {
  await measureStoreOverhead({
    stores: {
      'redis (ioredis)': new RedisCompactionStore({ client: ioredis, keyPrefix: 'bench:' }),
      'redis (node-redis)': new RedisCompactionStore({ client: nodeRedis, keyPrefix: 'bench:' }),
    },
  });
} finally {
  ioredis.disconnect();
  await nodeRedis.quit();
  await redis.stop();
}
