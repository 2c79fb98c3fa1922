import {
  type AcquireLeaseOptions,
  type AcquireLeaseResult,
  type CompactionState,
  type CompareAndSetOptions,
  type CompareAndSetResult,
  InvalidConfigError,
  InvalidStoredStateError,
  type LeasingCompactionStore,
  parseCompactionState,
  type VersionedCompactionState,
} from '@spillway/core';
import type { PostgresQueryable } from './postgres-client';
import { type TableName, tableName } from './table-name';

/** The row format this release writes (`schema_version`); rows from a newer one are left alone. */
export const POSTGRES_ROW_SCHEMA = 1;

/** Options of {@link PostgresCompactionStore}. */
export interface PostgresCompactionStoreOptions {
  /**
   * Runs the queries: a `pg` `Pool` (recommended for servers) or `Client`, PGlite, or anything with
   * `query(text, params) → { rows }`. The store never connects or ends it.
   */
  client: PostgresQueryable;
  /**
   * The table, `name` or `schema.name`. Create it with `ensureSchema()`.
   * @default 'spillway_compaction'
   */
  table?: string;
  /**
   * How long a conversation's state is kept after its last write, in seconds; `0` keeps it until
   * deleted. Expired rows are ignored at once and removed by `prune()`.
   * @default 2_592_000 (30 days)
   */
  ttlSeconds?: number;
}

/** A row's state counts only when present and unexpired; otherwise the conversation has none (revision 0). */
const EFFECTIVE_REVISION = (alias: string) =>
  `(CASE WHEN ${alias}.state IS NULL OR (${alias}.expires_at IS NOT NULL AND ${alias}.expires_at <= now()) THEN 0 ELSE ${alias}.revision END)`;
const EXPIRY = (parameter: string) =>
  `(CASE WHEN ${parameter}::double precision > 0 THEN now() + ${parameter}::double precision * interval '1 millisecond' END)`;

/**
 * A compaction store in Postgres, shared by every server instance: one row per conversation holding
 * the state (JSON text with its own `version`, plus the row's `schema_version`), its revision, and
 * the lease with its fencing counter. Each operation is one atomic statement (row locks), so
 * compare-and-set writes and lease grants are safe across any number of processes.
 *
 * @example
 * import pg from 'pg';
 * const store = new PostgresCompactionStore({ client: new pg.Pool({ connectionString }) });
 * await store.ensureSchema(); // safe from every instance at start-up
 * const compactor = createCompactor({ store, summarizer });
 *
 * @throws {InvalidConfigError} for a bad option.
 */
export class PostgresCompactionStore implements LeasingCompactionStore {
  readonly #client: PostgresQueryable;
  readonly #table: TableName;
  readonly #ttlMs: number;

  constructor({
    client,
    table = 'spillway_compaction',
    ttlSeconds = 2_592_000,
  }: PostgresCompactionStoreOptions) {
    if (client === null || typeof client !== 'object' || typeof client.query !== 'function') {
      throw new InvalidConfigError({
        option: 'client',
        value: client,
        message: 'must have query(text, params), like a pg Pool or Client or PGlite',
      });
    }
    if (typeof ttlSeconds !== 'number' || !Number.isFinite(ttlSeconds) || ttlSeconds < 0) {
      throw new InvalidConfigError({
        option: 'ttlSeconds',
        value: ttlSeconds,
        message: 'must be a number of seconds, 0 (no expiry) or more',
      });
    }
    this.#client = client;
    this.#table = tableName(table);
    this.#ttlMs = Math.round(ttlSeconds * 1000);
  }

  /**
   * Creates the table and its index if they do not exist. Safe to run from many instances at once
   * (a transaction-scoped advisory lock serializes them); cheap when the table exists.
   */
  async ensureSchema(): Promise<void> {
    const { sql, bare } = this.#table;
    await this.#client.query(`DO $spillway$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('spillway.ensure-schema:${sql.replaceAll("'", "''")}'));
  CREATE TABLE IF NOT EXISTS ${sql} (
    conversation_id text PRIMARY KEY,
    schema_version integer NOT NULL DEFAULT ${POSTGRES_ROW_SCHEMA},
    revision bigint NOT NULL DEFAULT 0,
    state text,
    expires_at timestamptz,
    fence bigint NOT NULL DEFAULT 0,
    lease_token bigint,
    lease_holder text,
    lease_expires_at timestamptz,
    updated_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE INDEX IF NOT EXISTS "${bare}_expires_at_idx" ON ${sql} (expires_at) WHERE expires_at IS NOT NULL;
END
$spillway$`);
  }

  async get(conversationId: string): Promise<CompactionState | undefined> {
    return (await this.read(conversationId))?.state;
  }

  async read(conversationId: string): Promise<VersionedCompactionState | undefined> {
    const { rows } = await this.#client.query(
      `SELECT schema_version, revision::text AS revision, state FROM ${this.#table.sql}
       WHERE conversation_id = $1 AND state IS NOT NULL AND (expires_at IS NULL OR expires_at > now())`,
      [conversationId],
    );
    const row = rows[0];
    if (row === undefined) return undefined;
    if (Number(row.schema_version) > POSTGRES_ROW_SCHEMA) {
      throw new InvalidStoredStateError({
        reason: 'unsupported-version',
        message: `The row has schema_version ${row.schema_version}; this release reads ${POSTGRES_ROW_SCHEMA}`,
      });
    }
    return { state: parseCompactionState(row.state), revision: Number(row.revision) };
  }

  async set(conversationId: string, state: CompactionState): Promise<void> {
    await this.#client.query(
      `INSERT INTO ${this.#table.sql} AS s (conversation_id, schema_version, revision, state, expires_at, updated_at)
       VALUES ($1, ${POSTGRES_ROW_SCHEMA}, 1, $2, ${EXPIRY('$3')}, now())
       ON CONFLICT (conversation_id) DO UPDATE SET
         schema_version = ${POSTGRES_ROW_SCHEMA}, revision = ${EFFECTIVE_REVISION('s')} + 1,
         state = EXCLUDED.state, expires_at = EXCLUDED.expires_at, updated_at = now()`,
      [conversationId, JSON.stringify(state), this.#ttlMs],
    );
  }

  async compareAndSet(
    conversationId: string,
    state: CompactionState,
    { expectedRevision, fencingToken }: CompareAndSetOptions,
  ): Promise<CompareAndSetResult> {
    const json = JSON.stringify(state);
    const fence = fencingToken === undefined ? null : String(fencingToken);
    const updated = await this.#client.query(
      `UPDATE ${this.#table.sql} AS s SET
         schema_version = ${POSTGRES_ROW_SCHEMA}, revision = ${EFFECTIVE_REVISION('s')} + 1,
         state = $2, expires_at = ${EXPIRY('$5')}, updated_at = now()
       WHERE s.conversation_id = $1 AND ${EFFECTIVE_REVISION('s')} = $3::bigint
         AND ($4::bigint IS NULL OR s.fence = $4::bigint) AND s.schema_version <= ${POSTGRES_ROW_SCHEMA}
       RETURNING s.revision::text AS revision`,
      [conversationId, json, String(expectedRevision), fence, this.#ttlMs],
    );
    if (updated.rows[0]) return { ok: true, revision: Number(updated.rows[0].revision) };
    if (expectedRevision === 0 && fence === null) {
      const inserted = await this.#client.query(
        `INSERT INTO ${this.#table.sql} (conversation_id, schema_version, revision, state, expires_at, updated_at)
         VALUES ($1, ${POSTGRES_ROW_SCHEMA}, 1, $2, ${EXPIRY('$3')}, now())
         ON CONFLICT (conversation_id) DO NOTHING
         RETURNING revision::text AS revision`,
        [conversationId, json, this.#ttlMs],
      );
      if (inserted.rows[0]) return { ok: true, revision: Number(inserted.rows[0].revision) };
    }
    // Refused: say why (the statements above were the atomic check; this only explains it).
    const { rows } = await this.#client.query(
      `SELECT fence::text AS fence, schema_version, state FROM ${this.#table.sql} WHERE conversation_id = $1`,
      [conversationId],
    );
    const row = rows[0];
    if (fence !== null && (row === undefined || String(row.fence) !== fence))
      return { ok: false, reason: 'fenced' };
    if (row !== undefined && (Number(row.schema_version) > POSTGRES_ROW_SCHEMA || !readable(row.state))) {
      return { ok: false, reason: 'unreadable' };
    }
    return { ok: false, reason: 'conflict' };
  }

  async delete(conversationId: string): Promise<void> {
    await this.#client.query(`DELETE FROM ${this.#table.sql} WHERE conversation_id = $1`, [conversationId]);
  }

  async acquireLease(
    conversationId: string,
    { holder, ttlMs }: AcquireLeaseOptions,
  ): Promise<AcquireLeaseResult> {
    const ttl = Math.max(1, Math.ceil(ttlMs));
    const granted = await this.#client.query(
      `INSERT INTO ${this.#table.sql} AS s (conversation_id, fence, lease_token, lease_holder, lease_expires_at)
       VALUES ($1, 1, 1, $2, now() + $3::double precision * interval '1 millisecond')
       ON CONFLICT (conversation_id) DO UPDATE SET
         fence = s.fence + 1, lease_token = s.fence + 1,
         lease_holder = EXCLUDED.lease_holder, lease_expires_at = EXCLUDED.lease_expires_at
       WHERE s.lease_token IS NULL OR s.lease_expires_at IS NULL OR s.lease_expires_at <= now()
       RETURNING lease_token::text AS token, (extract(epoch FROM lease_expires_at) * 1000)::double precision AS expires_at`,
      [conversationId, holder, ttl],
    );
    const row = granted.rows[0];
    if (row)
      return {
        acquired: true,
        lease: { token: Number(row.token), holder, expiresAt: Number(row.expires_at) },
      };
    const { rows } = await this.#client.query(
      `SELECT lease_token::text AS token, lease_holder AS holder,
         (extract(epoch FROM lease_expires_at) * 1000)::double precision AS expires_at
       FROM ${this.#table.sql} WHERE conversation_id = $1 AND lease_token IS NOT NULL AND lease_expires_at > now()`,
      [conversationId],
    );
    const current = rows[0];
    return current
      ? {
          acquired: false,
          current: {
            token: Number(current.token),
            holder: String(current.holder),
            expiresAt: Number(current.expires_at),
          },
        }
      : { acquired: false };
  }

  async renewLease(
    conversationId: string,
    { token, ttlMs }: { token: number; ttlMs: number },
  ): Promise<boolean> {
    const { rows } = await this.#client.query(
      `UPDATE ${this.#table.sql} SET lease_expires_at = now() + $3::double precision * interval '1 millisecond'
       WHERE conversation_id = $1 AND lease_token = $2::bigint AND lease_expires_at > now()
       RETURNING 1 AS renewed`,
      [conversationId, String(token), Math.max(1, Math.ceil(ttlMs))],
    );
    return rows.length > 0;
  }

  async releaseLease(conversationId: string, { token }: { token: number }): Promise<void> {
    await this.#client.query(
      `UPDATE ${this.#table.sql} SET lease_token = NULL, lease_holder = NULL, lease_expires_at = NULL
       WHERE conversation_id = $1 AND lease_token = $2::bigint`,
      [conversationId, String(token)],
    );
  }

  /**
   * Deletes expired states (and rows left with neither a state nor a lease for a day). Run it now
   * and then (a cron job, or at start-up); expired rows are ignored meanwhile. Returns how many rows
   * went.
   */
  async prune(): Promise<number> {
    const { rows } = await this.#client.query(
      `WITH gone AS (
         DELETE FROM ${this.#table.sql}
         WHERE (lease_expires_at IS NULL OR lease_expires_at <= now())
           AND ((expires_at IS NOT NULL AND expires_at <= now())
             OR (state IS NULL AND updated_at <= now() - interval '1 day'))
         RETURNING 1)
       SELECT count(*)::int AS count FROM gone`,
    );
    return Number(rows[0]?.count ?? 0);
  }
}

function readable(state: unknown): boolean {
  if (state === null || state === undefined) return true;
  try {
    parseCompactionState(state);
    return true;
  } catch {
    return false;
  }
}
