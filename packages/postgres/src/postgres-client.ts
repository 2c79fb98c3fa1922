/**
 * What the store needs from a Postgres client: `query(text, params)` resolving to `{ rows }`. A
 * `pg` `Pool` or `Client`, PGlite, and most Postgres drivers' pools have it.
 */
export interface PostgresQueryable {
  query(text: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}
