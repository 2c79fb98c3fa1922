import type { Result } from '../sdk/mcp-sdk';
import { truncateReadResourceResult } from '../truncate/truncate-read-resource-result';
import { forwardUpstream } from './forward-request';
import type { AnyRequest, HandlerExtra, SessionState } from './session-state';

/** `resources/read`: the contents held to the resource budgets. */
export async function readResource(
  state: SessionState,
  request: AnyRequest,
  extra: HandlerExtra,
): Promise<Result> {
  const result = await forwardUpstream(state, request, extra);
  const { result: output, changes } = truncateReadResourceResult(result, {
    budget: state.options.resourceBudget,
    recall: state.recall,
  });
  if (changes.length > 0) {
    state.options.logger.debug(`resources/read ${String(request.params?.uri)}: ${changes.join('; ')}`);
  }
  return output;
}
