import { LargeText } from './large-text';

/**
 * Replaces, in place, every large text inside `value` (a message about to leave the proxy) by its
 * string, so that a transport that hands messages on as objects (not as JSON) never passes one on.
 * Costs nothing until the process has made a large text; then one walk of the message. Returns
 * `value`.
 */
export function materializeLargeTexts<T>(value: T): T {
  if (LargeText.created === 0 || value === null || typeof value !== 'object') return value;
  const stack: object[] = [value as object];
  const seen = new Set<object>(stack);
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    const record = node as Record<string, unknown>;
    for (const key of Array.isArray(node) ? node.keys() : Object.keys(node)) {
      const item = record[key as string];
      if (item === null || typeof item !== 'object') continue;
      if (LargeText.isInstance(item)) record[key as string] = item.toString();
      else if (!seen.has(item)) {
        seen.add(item);
        stack.push(item);
      }
    }
  }
  return value;
}
