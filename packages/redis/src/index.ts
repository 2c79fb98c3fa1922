// The public surface of @spillway/redis. Adding a line here is an API decision.

export type { IoRedisLike, NodeRedisLike, RedisClientLike, RedisScriptClient } from './redis-client';
export { RedisCompactionStore, type RedisCompactionStoreOptions } from './redis-compaction-store';
