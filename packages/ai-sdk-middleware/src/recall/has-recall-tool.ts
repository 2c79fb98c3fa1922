import { RECALL_TOOL_NAME } from '@spillway/core';

/**
 * Whether a call's tools (V3/V4 `params.tools`: `{ type: 'function', name, … }[]`) include the
 * read-back tool, so the prompt may tell the model it exists.
 */
export function hasRecallTool(tools: unknown): boolean {
  if (!Array.isArray(tools)) return false;
  return tools.some(
    (tool) =>
      typeof tool === 'object' && tool !== null && (tool as { name?: unknown }).name === RECALL_TOOL_NAME,
  );
}
