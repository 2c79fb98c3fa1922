import { RECALL_TOOL_NAME } from '@spillway/core';
import { answerRecall } from '../recall/answer-recall';
import type { Result } from '../sdk/mcp-sdk';
import { forwardUpstream } from './forward-request';
import type { AnyRequest, HandlerExtra, SessionState } from './session-state';
import { truncateToolResult } from './truncate-tool-result';

/** Task-augmented calls whose tool is remembered, at most (the oldest are forgotten first). */
const MAX_REMEMBERED_TASKS = 1000;

/**
 * `tools/call`: `spillway_recall` is answered by the proxy from the session's kept texts; any other
 * call is forwarded and its result held to the tool's budget. A task-augmented call answers with a
 * task: its tool is remembered, for `tasks/result`.
 */
export async function callTool(
  state: SessionState,
  request: AnyRequest,
  extra: HandlerExtra,
): Promise<Result> {
  const name = request.params?.name;
  if (name === RECALL_TOOL_NAME && state.recall !== undefined) {
    return answerRecall({
      ...state.recall,
      input: request.params?.arguments,
      maxTokens: state.options.budget.maxResultTokens,
    });
  }
  const result = await forwardUpstream(state, request, extra);
  if (typeof name !== 'string') return result;
  const taskId = (result as { task?: { taskId?: unknown } }).task?.taskId;
  if (typeof taskId === 'string') {
    // A task-augmented call: the result comes later from tasks/result; remember whose it is.
    state.taskTools.set(taskId, name);
    if (state.taskTools.size > MAX_REMEMBERED_TASKS)
      state.taskTools.delete(state.taskTools.keys().next().value as string);
    return result;
  }
  return truncateToolResult(state, name, result, extra);
}

/** `tasks/result`: the result of a task-augmented `tools/call`, truncated like a direct one. */
export async function taskResult(
  state: SessionState,
  request: AnyRequest,
  extra: HandlerExtra,
): Promise<Result> {
  const result = await forwardUpstream(state, request, extra);
  const taskId = request.params?.taskId;
  const name = typeof taskId === 'string' ? state.taskTools.get(taskId) : undefined;
  return name === undefined ? result : truncateToolResult(state, name, result, extra);
}
