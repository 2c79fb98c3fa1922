import type { Result } from '../sdk/mcp-sdk';
import { truncateGetPromptResult } from '../truncate/truncate-get-prompt-result';
import { forwardUpstream } from './forward-request';
import type { AnyRequest, HandlerExtra, SessionState } from './session-state';

/** `prompts/get`: the messages held to the prompt budgets. */
export async function getPrompt(
  state: SessionState,
  request: AnyRequest,
  extra: HandlerExtra,
): Promise<Result> {
  const result = await forwardUpstream(state, request, extra);
  const { result: output, changes } = truncateGetPromptResult(result, {
    budget: state.options.promptBudget,
    recall: state.recall,
  });
  if (changes.length > 0) {
    state.options.logger.debug(`prompts/get ${String(request.params?.name)}: ${changes.join('; ')}`);
  }
  return output;
}
