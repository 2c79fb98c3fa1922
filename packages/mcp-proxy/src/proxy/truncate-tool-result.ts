import type { CallToolResult, Result } from '../sdk/mcp-sdk';
import { truncateCallToolResult } from '../truncate/truncate-call-tool-result';
import type { HandlerExtra, SessionState } from './session-state';

/**
 * A `tools/call` result held to the tool's budget (its own, else the default), its structured content
 * kept valid against the tool's `outputSchema`. When the structured content had to be dropped, the
 * tool's schema is no longer listed and the client is told the list changed.
 */
export async function truncateToolResult(
  state: SessionState,
  name: string,
  result: Result,
  extra: HandlerExtra,
): Promise<Result> {
  const { budget, tools, logger, requestTimeout } = state.options;
  const callResult = result as CallToolResult;
  if (!Array.isArray(callResult.content) && callResult.structuredContent === undefined) return result;
  const validate =
    callResult.structuredContent === undefined
      ? undefined
      : await state.tools.validatorFor(name, {
          client: state.upstream?.client,
          signal: extra.signal,
          timeout: requestTimeout,
        });
  const truncated = truncateCallToolResult(callResult, {
    budget: tools.get(name) ?? budget,
    recall: state.recall,
    validateStructuredContent: validate,
  });
  if (truncated.changes.length > 0) logger.debug(`tools/call ${name}: ${truncated.changes.join('; ')}`);
  if (truncated.structuredContentDropped && state.tools.dropOutputSchema(name)) {
    void state.server?.notification({ method: 'notifications/tools/list_changed' }).catch(() => {});
  }
  return truncated.result;
}
