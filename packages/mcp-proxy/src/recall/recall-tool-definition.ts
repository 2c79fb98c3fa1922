import { RECALL_TOOL_DESCRIPTION, RECALL_TOOL_NAME, recallToolInputSchema } from '@spillway/core';
import type { Tool } from '../sdk/mcp-sdk';

/**
 * The read-back tool the proxy adds to the last page of `tools/list`: `@spillway/core`'s shared
 * `spillway_recall` (same name, description and input schema as in the other adapters).
 */
export function recallToolDefinition(): Tool {
  return {
    name: RECALL_TOOL_NAME,
    title: 'Read back or search cut material',
    description: RECALL_TOOL_DESCRIPTION,
    inputSchema: recallToolInputSchema as Tool['inputSchema'],
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  };
}
