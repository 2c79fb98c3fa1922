/** The store the multi-process workers use: RedisCompactionStore over ioredis at `REDIS_URL`. */
import { Redis } from 'ioredis';
import { RedisCompactionStore } from '../../src/index';

export async function createStore() {
  const client = new Redis(process.env.REDIS_URL!, {
    // While Redis is down, fail commands fast instead of queueing them (the compactor's own time
    // limit would cover it too).
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    retryStrategy: () => 100,
  });
  client.on('error', () => {});
  await new Promise((resolve) => client.once('ready', resolve));
  return {
    store: new RedisCompactionStore({ client, keyPrefix: 'e2e:' }),
    close: async () => {
      client.disconnect();
    },
  };
}
