import { toJsonSchema } from '@langchain/core/utils/json_schema';
import type { Estimator } from '@spillway/core';

/** What this package reads from a tool bound to the agent's model. */
export interface ToolLike {
  name?: unknown;
  description?: unknown;
  schema?: unknown;
}

const memo = new WeakMap<object, number>();

/**
 * Tokens the tool definitions add to every request (names, descriptions, JSON schemas), counted
 * once per tool object.
 */
export function toolDefinitionTokens(tools: readonly ToolLike[] | undefined, estimator: Estimator): number {
  if (!tools) return 0;
  let total = 0;
  for (const tool of tools) {
    if (tool === null || typeof tool !== 'object') continue;
    const cached = memo.get(tool);
    if (cached !== undefined) {
      total += cached;
      continue;
    }
    let schema: unknown = tool.schema;
    try {
      if (schema !== undefined) schema = toJsonSchema(schema as Parameters<typeof toJsonSchema>[0]);
    } catch {
      schema = undefined;
    }
    let text: string;
    try {
      text = JSON.stringify({ name: tool.name, description: tool.description, parameters: schema });
    } catch {
      text = `${String(tool.name)} ${String(tool.description)}`;
    }
    const count = estimator.countText(text);
    memo.set(tool, count);
    total += count;
  }
  return total;
}
