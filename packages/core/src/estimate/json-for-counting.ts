/** A value's JSON text for counting, with its binary data set aside. */
export interface JsonForCounting {
  /** The JSON text, with every binary value written as `""`. */
  readonly text: string;
  /** Total bytes of the binary values (typed arrays, `DataView`s, `ArrayBuffer`s) found inside. */
  readonly binaryBytes: number;
}

/** Nesting deeper than this is written as `null`. */
const MAXIMUM_DEPTH = 100;

/**
 * Writes `value` as JSON text the way `JSON.stringify` would, for counting its size, but never
 * stringifies binary data (a `Uint8Array`, `Buffer` or `ArrayBuffer` is measured by `byteLength`
 * and written as `""`, without calling its `toJSON`), writes `bigint`s as numbers, `Map`s and
 * `Set`s by their entries, and cycles and over-deep nesting as `null`. Never throws: a getter or
 * `toJSON` that throws counts as `null`.
 */
export function jsonForCounting(value: unknown): JsonForCounting {
  const pieces: string[] = [];
  const ancestors = new Set<object>();
  let binaryBytes = 0;

  const visit = (current: unknown, depth: number): void => {
    switch (typeof current) {
      case 'string':
        pieces.push(JSON.stringify(current));
        return;
      case 'number':
        pieces.push(Number.isFinite(current) ? String(current) : 'null');
        return;
      case 'boolean':
        pieces.push(current ? 'true' : 'false');
        return;
      case 'bigint':
        pieces.push(current.toString());
        return;
      case 'object':
        break;
      default:
        pieces.push('null');
        return;
    }
    if (current === null) {
      pieces.push('null');
      return;
    }
    if (ArrayBuffer.isView(current)) {
      binaryBytes += current.byteLength;
      pieces.push('""');
      return;
    }
    if (current instanceof ArrayBuffer) {
      binaryBytes += current.byteLength;
      pieces.push('""');
      return;
    }
    if (ancestors.has(current) || depth > MAXIMUM_DEPTH) {
      pieces.push('null');
      return;
    }
    ancestors.add(current);
    try {
      const toJSON = (current as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === 'function') {
        visit(toJSON.call(current), depth + 1);
      } else if (Array.isArray(current) || current instanceof Set) {
        pieces.push('[');
        let first = true;
        for (const item of current) {
          if (!first) pieces.push(',');
          first = false;
          visit(item, depth + 1);
        }
        pieces.push(']');
      } else if (current instanceof Map) {
        pieces.push('{');
        let first = true;
        for (const [key, item] of current) {
          if (!first) pieces.push(',');
          first = false;
          pieces.push(JSON.stringify(String(key)), ':');
          visit(item, depth + 1);
        }
        pieces.push('}');
      } else {
        pieces.push('{');
        let first = true;
        for (const key of Object.keys(current)) {
          const item = (current as Record<string, unknown>)[key];
          if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
          if (!first) pieces.push(',');
          first = false;
          pieces.push(JSON.stringify(key), ':');
          visit(item, depth + 1);
        }
        pieces.push('}');
      }
    } catch {
      pieces.push('null');
    } finally {
      ancestors.delete(current);
    }
  };

  visit(value, 0);
  return { text: pieces.join(''), binaryBytes };
}
