import type { ToolCallPart } from './message';

/**
 * The string values of a tool call's input (nested up to three levels): what the call already
 * says, so a stub of its result need not repeat them among the identifiers it lists.
 */
export function callArgumentValues(call: ToolCallPart): ReadonlySet<string> {
  const values = new Set<string>();
  const visit = (value: unknown, depth: number) => {
    if (typeof value === 'string') values.add(value);
    else if (depth < 3 && value !== null && typeof value === 'object') {
      for (const item of Object.values(value as Record<string, unknown>)) visit(item, depth + 1);
    }
  };
  visit(call.input, 0);
  return values;
}
