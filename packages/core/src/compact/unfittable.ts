import { ContextOverflowError } from '../errors/context-overflow-error';
import type { Message } from '../message/message';
import type { RequestBudget } from './request-budget';
import type { RequestDraft } from './request-draft';

/** The error for a request that cannot fit even at its smallest, with what could not be shrunk. */
export function unfittable(
  draft: RequestDraft,
  {
    tokens,
    budget,
    limitTokens,
    overheadTokens,
    countTokens,
  }: {
    tokens: number;
    budget: RequestBudget;
    /** The most the request may take (calibrated): the window, less the output reserved for the answer. */
    limitTokens: number;
    overheadTokens: number;
    countTokens: (list: readonly Message[]) => number;
  },
): ContextOverflowError {
  const systemMessages = [
    ...draft.layout.system,
    ...draft.history.filter((message) => message.role === 'system'),
    ...draft.turn.filter((message) => message.role === 'system'),
  ];
  const raw = (list: readonly Message[]) => Math.max(0, countTokens(list) - countTokens([]));
  const userMessage = draft.turn.find((message) => message.role === 'user');
  const system = raw(systemMessages);
  const userText = userMessage === undefined ? 0 : raw([userMessage]);
  const currentTurn = Math.max(0, raw(draft.turn.filter((message) => message.role !== 'system')) - userText);
  const overhead = countTokens([]);
  const parts = [
    userText > 0 ? `the user's message (about ${userText.toLocaleString('en-US')} tokens)` : undefined,
    system > 0 ? `the system prompt (about ${system.toLocaleString('en-US')})` : undefined,
    currentTurn > 0
      ? `the rest of the current turn at its smallest (about ${currentTurn.toLocaleString('en-US')})`
      : undefined,
    overhead > 0 ? `tool definitions and framing (about ${overhead.toLocaleString('en-US')})` : undefined,
  ].filter((part) => part !== undefined);
  const budgetTokens = Math.floor(limitTokens);
  const reserved = budget.contextWindow - budgetTokens;
  return new ContextOverflowError({
    message:
      `The request cannot fit the context window: even with no history and the current turn's tool ` +
      `results and images shrunk, it needs about ${tokens.toLocaleString('en-US')} tokens, over the ` +
      `${budgetTokens.toLocaleString('en-US')} a ${budget.contextWindow.toLocaleString('en-US')}-token window ` +
      `allows${reserved > 0 ? ` with ${reserved.toLocaleString('en-US')} reserved for the answer` : ''}. What cannot be shrunk: ` +
      `${parts.join(', ')}. Shorten the message or use a model with a larger window. ` +
      `No request was sent.`,
    tokenCount: tokens,
    contextWindow: budget.contextWindow,
    budgetTokens,
    unshrinkable: { system, userText, currentTurn, overhead: overheadTokens },
  });
}
