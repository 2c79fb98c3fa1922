/**
 * JSON with object keys sorted at every level, so that equal values give equal text whatever their
 * key order. Follows `JSON.stringify` otherwise (`toJSON`, undefined and functions skipped in
 * objects and `null` in arrays, non-finite numbers as `null`); bigints are written as `123n`.
 * Returns `undefined` for a cyclic value. Internal to the truncate stage.
 */
export function canonicalJson(value: unknown): string | undefined {
  try {
    return write(value, new Set()) ?? 'null';
  } catch {
    return undefined;
  }
}

function write(value: unknown, ancestors: Set<object>): string | undefined {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return `${value}n`;
    case 'object':
      break;
    default:
      return undefined;
  }
  const object = value as object & { toJSON?: unknown };
  if (typeof object.toJSON === 'function') return write(object.toJSON(), ancestors);
  if (ancestors.has(object)) throw new TypeError('cyclic value');
  ancestors.add(object);
  let text: string;
  if (Array.isArray(object)) {
    text = `[${object.map((item) => write(item, ancestors) ?? 'null').join(',')}]`;
  } else {
    const record = object as Record<string, unknown>;
    const fields: string[] = [];
    for (const key of Object.keys(record).sort()) {
      const field = write(record[key], ancestors);
      if (field !== undefined) fields.push(`${JSON.stringify(key)}:${field}`);
    }
    text = `{${fields.join(',')}}`;
  }
  ancestors.delete(object);
  return text;
}
