import { RECALL_TOOL_NAME } from '@spillway/core';
import { recallToolDefinition } from '../recall/recall-tool-definition';
import type { Result, Tool } from '../sdk/mcp-sdk';
import { forwardUpstream } from './forward-request';
import type { AnyRequest, HandlerExtra, SessionState } from './session-state';

/**
 * `tools/list`: the upstream's tools, each recorded (output schemas, dropped ones stripped), and
 * `spillway_recall` added to the last page when paging is on and the upstream has no tool by that
 * name.
 */
export async function listTools(
  state: SessionState,
  request: AnyRequest,
  extra: HandlerExtra,
): Promise<Result> {
  const result = await forwardUpstream(state, request, extra);
  const tools = (result as { tools?: unknown }).tools;
  if (!Array.isArray(tools)) return result;
  const nextCursor = (result as { nextCursor?: unknown }).nextCursor;
  const listed = (tools as Tool[]).map((tool) => state.tools.record(tool));
  if (request.params?.cursor === undefined && nextCursor === undefined) state.tools.markKnown();
  if (
    state.recall !== undefined &&
    nextCursor === undefined &&
    !listed.some((tool) => tool.name === RECALL_TOOL_NAME)
  ) {
    listed.push(recallToolDefinition());
  }
  return { ...result, tools: listed };
}
