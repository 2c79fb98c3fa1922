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
const LIVE_STATE = (alias: string) =>
  `(${alias}.state IS NOT NULL AND (${alias}.expires_at IS NULL OR ${alias}.expires_at > now()))`;
const EXPIRY = (parameter: string) =>
  `(CASE WHEN ${parameter}::double precision > 0 THEN now() + ${parameter}::double precision * interval '1 millisecond' END)`;

/** The largest fencing token the store grants: JavaScript holds every token up to it exactly. */
const MAX_TOKEN = '9007199254740990';
/** A counter or token the store can have written, else 0. */
const GRANTED = (column: string) =>
  `(CASE WHEN ${column} BETWEEN 0 AND ${MAX_TOKEN} THEN ${column} ELSE 0 END)`;
/**
 * Whether the row's lease holds: a token the counter granted, an expiry that is a time and still
 * ahead. Anything else (a damaged counter or lease, no expiry, `infinity`) cannot back a write.
 */
const LEASE_HELD = (alias: string) =>
  `COALESCE(${alias}.lease_token = ${alias}.fence AND ${alias}.fence BETWEEN 1 AND ${MAX_TOKEN}
    AND isfinite(${alias}.lease_expires_at) AND ${alias}.lease_expires_at > now(), false)`;
/**
 * The next token: above the counter and any token a lease record names. A counter out of range
 * (damaged) is replaced by the time in milliseconds, above anything a counter that counts grants
 * reaches, so tokens keep growing past the damage.
 */
const NEXT_TOKEN = (alias: string) =>
  `(GREATEST(${GRANTED(`${alias}.fence`)}, ${GRANTED(`${alias}.lease_token`)},
    CASE WHEN ${alias}.fence BETWEEN 0 AND ${MAX_TOKEN} THEN 0
      ELSE (extract(epoch FROM now()) * 1000)::bigint END) + 1)`;
/** How many times a compare-and-set checks the row again when another writer changed it meanwhile. */
const MAX_CHECKS = 5;

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
      `SELECT schema_version, revision::text AS revision, state FROM ${this.#table.sql} AS s
       WHERE conversation_id = $1 AND ${LIVE_STATE('s')}`,
      [conversationId],
    );
    return rows[0] === undefined ? undefined : decodeRow(rows[0]);
  }

  async set(conversationId: string, state: CompactionState): Promise<void> {
    await this.#client.query(
      `INSERT INTO ${this.#table.sql} AS s (conversation_id, schema_version, revision, state, expires_at, updated_at)
       VALUES ($1, ${POSTGRES_ROW_SCHEMA}, 1, $2, ${EXPIRY('$3')}, now())
       ON CONFLICT (conversation_id) DO UPDATE SET
         schema_version = ${POSTGRES_ROW_SCHEMA},
         revision = (CASE WHEN ${LIVE_STATE('s')} THEN s.revision ELSE 0 END) + 1,
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
    // The row is checked here, by the code `read()` uses; the write then happens only over the very
    // row that was checked (same revision, same state text). Another writer changing it in between
    // sends us round again.
    for (let attempt = 1; attempt <= MAX_CHECKS; attempt++) {
      const { rows } = await this.#client.query(
        `SELECT schema_version, revision::text AS revision, fence::text AS fence, state, ${LIVE_STATE('s')} AS live
         FROM ${this.#table.sql} AS s WHERE conversation_id = $1`,
        [conversationId],
      );
      const row = rows[0];
      if (fence !== null && (row === undefined || String(row.fence) !== fence)) {
        return { ok: false, reason: 'fenced' };
      }
      if (row !== undefined && Number(row.schema_version) > POSTGRES_ROW_SCHEMA) {
        return { ok: false, reason: 'unreadable' };
      }
      let current = 0;
      if (row?.live === true) {
        try {
          current = decodeRow(row).revision;
        } catch (error) {
          if (InvalidStoredStateError.isInstance(error)) return { ok: false, reason: 'unreadable' };
          throw error;
        }
      }
      if (current !== expectedRevision) return { ok: false, reason: 'conflict' };
      const written =
        row === undefined
          ? await this.#client.query(
              `INSERT INTO ${this.#table.sql} (conversation_id, schema_version, revision, state, expires_at, updated_at)
               VALUES ($1, ${POSTGRES_ROW_SCHEMA}, 1, $2, ${EXPIRY('$3')}, now())
               ON CONFLICT (conversation_id) DO NOTHING
               RETURNING revision::text AS revision`,
              [conversationId, json, this.#ttlMs],
            )
          : await this.#client.query(
              `UPDATE ${this.#table.sql} AS s SET
                 schema_version = ${POSTGRES_ROW_SCHEMA}, revision = $3::bigint + 1,
                 state = $2, expires_at = ${EXPIRY('$4')}, updated_at = now()
               WHERE s.conversation_id = $1 AND s.revision = $5::bigint AND s.state IS NOT DISTINCT FROM $6::text
                 AND ($7::bigint IS NULL OR s.fence = $7::bigint) AND s.schema_version <= ${POSTGRES_ROW_SCHEMA}
               RETURNING s.revision::text AS revision`,
              [conversationId, json, String(current), this.#ttlMs, String(row.revision), row.state, fence],
            );
      if (written.rows[0]) return { ok: true, revision: Number(written.rows[0].revision) };
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
         fence = ${NEXT_TOKEN('s')}, lease_token = ${NEXT_TOKEN('s')},
         lease_holder = EXCLUDED.lease_holder, lease_expires_at = EXCLUDED.lease_expires_at
       WHERE NOT ${LEASE_HELD('s')}
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
       FROM ${this.#table.sql} AS s WHERE conversation_id = $1 AND ${LEASE_HELD('s')}`,
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
       WHERE conversation_id = $1 AND lease_token = $2::bigint AND fence = lease_token AND lease_expires_at > now()
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

/** A row's state and revision, checked as `read()` checks them. */
function decodeRow(row: Record<string, unknown>): VersionedCompactionState {
  if (Number(row.schema_version) > POSTGRES_ROW_SCHEMA) {
    throw new InvalidStoredStateError({
      reason: 'unsupported-version',
      message: `The row has schema_version ${row.schema_version}; this release reads ${POSTGRES_ROW_SCHEMA}`,
    });
  }
  return { state: parseCompactionState(row.state), revision: Number(row.revision) };
}
