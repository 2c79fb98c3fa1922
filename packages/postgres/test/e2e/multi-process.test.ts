import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, inject, it } from 'vitest';
import {
  holderKilledMidSummary,
  oneRunPerCrossing,
  serverStopsMidRun,
  staleHolderIsFenced,
} from '../../../core/test/multi-instance/scenarios';
import { PostgresCompactionStore } from '../../src/index';
import { startPostgres } from '../postgres-server';

const storeModule = fileURLToPath(new URL('./postgres-store-module.ts', import.meta.url));
const url = inject('postgresUrl');
const pool = new pg.Pool({ connectionString: url });
const table = 'e2e_compaction';
const backend = {
  storeModule,
  env: { DATABASE_URL: url, TABLE: table },
  store: new PostgresCompactionStore({ client: pool, table }),
};

beforeAll(() => backend.store.ensureSchema());
afterAll(async () => {
  await pool.end();
});

describe('3 Node processes sharing one real Postgres', () => {
  it('3 × 50 concurrent requests over the threshold: one summarizer run per crossing, one state everywhere, no lost update', () =>
    oneRunPerCrossing(backend));

  it('the lease holder killed mid-summary: another instance completes it after the lease expires', () =>
    holderKilledMidSummary(backend));

  it("a stale holder's late write is fenced", () => staleHolderIsFenced(backend));

  it('Postgres stopped mid-run and started again: every request still succeeds', async () => {
    const postgres = await startPostgres();
    const own = new pg.Pool({ connectionString: postgres.url });
    own.on('error', () => {});
    const store = new PostgresCompactionStore({ client: own, table });
    try {
      await store.ensureSchema();
      await serverStopsMidRun({
        storeModule,
        env: { DATABASE_URL: postgres.url, TABLE: table },
        store,
        stop: () => postgres.stop(),
        restart: () => postgres.restart(),
      });
    } finally {
      await own.end().catch(() => {});
      await postgres.dispose();
    }
  });
});
