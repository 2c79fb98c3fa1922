import { RECALL_TOOL_NAME } from '@spillway/core';

/**
 * Whether a model request's tools include the read-back tool (a LangChain tool with `name`, or an
 * OpenAI-style `{ type: 'function', function: { name } }` definition), so the prompt may tell the
 * model it exists.
 */
export function hasRecallTool(tools: readonly unknown[] | undefined): boolean {
  if (!Array.isArray(tools)) return false;
  return tools.some((tool) => {
    if (typeof tool !== 'object' || tool === null) return false;
    const { name, function: definition } = tool as { name?: unknown; function?: { name?: unknown } };
    return name === RECALL_TOOL_NAME || definition?.name === RECALL_TOOL_NAME;
  });
}
