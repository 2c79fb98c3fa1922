import { InvalidConfigError } from '@spillway/core';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** A checked, quoted table name (`name` or `schema.name`) and the bare name for derived names. */
export interface TableName {
  /** Quoted for SQL: `"schema"."name"`. */
  sql: string;
  /** The table's own name, unquoted (for index and lock names). */
  bare: string;
}

/** Checks `table` (plain identifiers only, so it can be quoted safely) and quotes it. */
export function tableName(table: string): TableName {
  const parts = typeof table === 'string' ? table.split('.') : [];
  if (parts.length < 1 || parts.length > 2 || !parts.every((part) => IDENTIFIER.test(part))) {
    throw new InvalidConfigError({
      option: 'table',
      value: table,
      message:
        'must be a table name or schema.table, each of letters, digits and _ (not starting with a digit)',
    });
  }
  return { sql: parts.map((part) => `"${part}"`).join('.'), bare: parts.at(-1)! };
}
