import { PGlite } from '@electric-sql/pglite';
import {
  type CompactionStore,
  conformanceState,
  createCompactor,
  type LeaseDamage,
  storeConformanceCases,
} from '@spillway/core';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { PostgresQueryable } from './postgres-client';
import { PostgresCompactionStore } from './postgres-compaction-store';

const url = inject('postgresUrl');

const clients: Record<string, () => Promise<{ client: PostgresQueryable; close: () => Promise<void> }>> = {
  'pg Pool (real Postgres)': async () => {
    const pool = new pg.Pool({ connectionString: url, max: 20 });
    return { client: pool, close: () => pool.end() };
  },
  'pg Client (real Postgres)': async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    return { client, close: () => client.end() };
  },
  PGlite: async () => {
    const db = await PGlite.create();
    return { client: db, close: () => db.close() };
  },
};

describe.each(Object.entries(clients))('PostgresCompactionStore with %s', (_name, connect) => {
  let connection: Awaited<ReturnType<typeof connect>>;
  const table = `conformance_${Math.random().toString(36).slice(2, 8)}`;
  beforeAll(async () => {
    connection = await connect();
    await new PostgresCompactionStore({ client: connection.client, table }).ensureSchema();
  });
  afterAll(async () => {
    await connection.client.query(`DROP TABLE IF EXISTS ${table}`);
    await connection.close();
  });

  const cases = storeConformanceCases({
    createStore: () => new PostgresCompactionStore({ client: connection.client, table }),
    writeRawValue: async (_store: CompactionStore, id: string, value: string) => {
      await connection.client.query(
        `INSERT INTO ${table} (conversation_id, revision, state) VALUES ($1, 1, $2)
         ON CONFLICT (conversation_id) DO UPDATE SET state = EXCLUDED.state`,
        [id, value],
      );
    },
    readRawValue: async (_store: CompactionStore, id: string) => {
      const { rows } = await connection.client.query(
        `SELECT state FROM ${table} WHERE conversation_id = $1`,
        [id],
      );
      return rows[0]?.state as string | undefined;
    },
    writeRawState: async (_store: CompactionStore, id: string, { stateText, revision }) => {
      await connection.client.query(
        `INSERT INTO ${table} (conversation_id, revision, state) VALUES ($1, $2, $3)
         ON CONFLICT (conversation_id) DO UPDATE SET state = EXCLUDED.state, revision = EXCLUDED.revision`,
        [id, revision, stateText],
      );
    },
    damageLease: async (_store: CompactionStore, id: string, damage: LeaseDamage) => {
      const damages: Record<LeaseDamage, string | undefined> = {
        'counter-not-a-number': undefined,
        'counter-negative': 'fence = -5',
        'counter-out-of-range': 'fence = 9223372036854775807',
        'counter-lost': 'fence = 0',
        'counter-wrong-type': undefined,
        'lease-unreadable':
          "lease_token = -1, lease_holder = NULL, lease_expires_at = now() + interval '1 minute'",
        'lease-never-expires': "lease_token = fence, lease_holder = 'ghost', lease_expires_at = 'infinity'",
        'lease-not-granted':
          "lease_token = 999999, lease_holder = 'ghost', lease_expires_at = now() + interval '1 minute'",
        'lease-wrong-type': undefined,
      };
      const change = damages[damage];
      if (change === undefined) return false;
      await connection.client.query(`UPDATE ${table} SET ${change} WHERE conversation_id = $1`, [id]);
      return true;
    },
  });
  for (const testCase of cases) {
    it(`${testCase.capability}: ${testCase.name}`, async (context) => {
      if ((await testCase.run()) === 'skipped') context.skip();
    });
  }

  it('ignores expired states, prunes them, and leaves rows of a newer schema alone', async () => {
    const store = new PostgresCompactionStore({ client: connection.client, table, ttlSeconds: 0.05 });
    await store.set('expiring', conformanceState(1));
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(await store.read('expiring')).toBeUndefined();
    const write = await store.compareAndSet('expiring', conformanceState(2), { expectedRevision: 0 });
    expect(write.ok).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(await store.prune()).toBeGreaterThanOrEqual(1);
    const { rows } = await connection.client.query(
      `SELECT 1 FROM ${table} WHERE conversation_id = 'expiring'`,
    );
    expect(rows).toHaveLength(0);

    const keeper = new PostgresCompactionStore({ client: connection.client, table });
    await keeper.set('future', conformanceState(3));
    await connection.client.query(`UPDATE ${table} SET schema_version = 2 WHERE conversation_id = 'future'`);
    await expect(keeper.read('future')).rejects.toMatchObject({ reason: 'unsupported-version' });
    const refused = await keeper.compareAndSet('future', conformanceState(4), { expectedRevision: 1 });
    expect(refused).toEqual({ ok: false, reason: 'unreadable' });
    await keeper.delete('future');
  });
});

describe('PostgresCompactionStore', () => {
  it('ensureSchema run by many connections at once creates the table once, without errors', async () => {
    const pools = Array.from({ length: 6 }, () => new pg.Pool({ connectionString: url, max: 2 }));
    const table = `concurrent_${Math.random().toString(36).slice(2, 8)}`;
    try {
      await Promise.all(
        pools.flatMap((pool) =>
          [1, 2].map(() => new PostgresCompactionStore({ client: pool, table }).ensureSchema()),
        ),
      );
      const { rows } = await pools[0]!.query(
        'SELECT count(*)::int AS count FROM pg_tables WHERE tablename = $1',
        [table],
      );
      expect(rows[0].count).toBe(1);
      await pools[0]!.query(`DROP TABLE ${table}`);
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
    }
  });

  it('a schema-qualified table works; bad names are refused', async () => {
    const pool = new pg.Pool({ connectionString: url });
    const schema = `s_${Math.random().toString(36).slice(2, 8)}`;
    await pool.query(`CREATE SCHEMA ${schema}`);
    const store = new PostgresCompactionStore({ client: pool, table: `${schema}.compaction` });
    await store.ensureSchema();
    await store.set('a', conformanceState(1));
    expect(await store.get('a')).toEqual(conformanceState(1));
    await pool.query(`DROP SCHEMA ${schema} CASCADE`);
    await pool.end();
    expect(() => new PostgresCompactionStore({ client: pool, table: 'x; DROP TABLE y' })).toThrow(/table/);
    expect(() => new PostgresCompactionStore({ client: pool, table: 'a.b.c' })).toThrow(/table/);
    expect(() => new PostgresCompactionStore({ client: {} as never })).toThrow(/client/);
    expect(() => new PostgresCompactionStore({ client: pool, ttlSeconds: -1 })).toThrow(/ttlSeconds/);
  });

  it('compareAndSet writes only over the row it checked: a row changed in between is checked again', async () => {
    const pool = new pg.Pool({ connectionString: url });
    const table = `changed_${Math.random().toString(36).slice(2, 8)}`;
    const writer = new PostgresCompactionStore({ client: pool, table });
    await writer.ensureSchema();
    await writer.set('c', conformanceState(1));
    const corrupt = '{"version":1,"summaries":"changed meanwhile"}';
    let checks = 0;
    // A foreign writer slips in right after the store's first look at the row.
    const client: PostgresQueryable = {
      query: async (text, params) => {
        const result = await pool.query(text, params);
        if (text.includes('AS live') && checks++ === 0) {
          await pool.query(`UPDATE ${table} SET state = $1 WHERE conversation_id = 'c'`, [corrupt]);
        }
        return result;
      },
    };
    const store = new PostgresCompactionStore({ client, table });
    const write = await store.compareAndSet('c', conformanceState(2), { expectedRevision: 1 });
    expect(write).toEqual({ ok: false, reason: 'unreadable' });
    expect(checks).toBe(2);
    const { rows } = await pool.query(`SELECT state FROM ${table} WHERE conversation_id = 'c'`);
    expect(rows[0].state).toBe(corrupt);
    await pool.query(`DROP TABLE ${table}`);
    await pool.end();
  });

  it('two compactors, one through pg and one through another pool, share one summary', async () => {
    const one = new pg.Pool({ connectionString: url });
    const two = new pg.Pool({ connectionString: url });
    const table = `share_${Math.random().toString(36).slice(2, 8)}`;
    await new PostgresCompactionStore({ client: one, table }).ensureSchema();
    const messages = Array.from({ length: 24 }, (_, index) => ({
      role: index % 2 === 0 ? ('user' as const) : ('assistant' as const),
      content: `Message ${index}: ${'words '.repeat(150)}`,
    }));
    const contextWindow = Math.floor(createCompactor().estimator.countMessages(messages) / 0.9);
    const summarizer = () => 'The user and assistant talked about words.';
    const first = createCompactor({
      store: new PostgresCompactionStore({ client: one, table }),
      summarizer,
      contextWindow,
    });
    const second = createCompactor({
      store: new PostgresCompactionStore({ client: two, table }),
      summarizer,
      contextWindow,
    });
    const made = await first.prepare(messages, { conversationId: 'c' });
    expect(made.stateChanged).toBe(true);
    const applied = await second.prepare([...messages, { role: 'user', content: 'next' }], {
      conversationId: 'c',
    });
    expect(applied.actions).toContain('apply-summary');
    expect(applied.state).toEqual(made.state);
    await one.query(`DROP TABLE ${table}`);
    await Promise.all([one.end(), two.end()]);
  });
});
