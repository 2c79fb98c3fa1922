/** The store the multi-process workers use: PostgresCompactionStore over a pg Pool at `DATABASE_URL`. */
import pg from 'pg';
import { PostgresCompactionStore } from '../../src/index';

export async function createStore() {
  const pool = new pg.Pool({
    connectionString: process.env.DATABASE_URL,
    max: 10,
    connectionTimeoutMillis: 2_000,
  });
  // A pool reports connections lost while idle (the server went down) as 'error' events.
  pool.on('error', () => {});
  const store = new PostgresCompactionStore({
    client: pool,
    table: process.env.TABLE ?? 'spillway_compaction',
  });
  return {
    store,
    close: async () => {
      await pool.end();
    },
  };
}
