// The public surface of @spillway/postgres. Adding a line here is an API decision.

export type { PostgresQueryable } from './postgres-client';
export {
  POSTGRES_ROW_SCHEMA,
  PostgresCompactionStore,
  type PostgresCompactionStoreOptions,
} from './postgres-compaction-store';
