import type { Message } from '../message/message';
import type { CompactionState } from '../store/compaction-state';
import { claimSummary } from './claim-summary';
import type { ResolvedCompactionOptions } from './compaction-options';
import { applicable, type CompactorRuntime } from './compactor-runtime';
import { currentTurnStart } from './current-turn';
import { requestBudget } from './request-budget';
import { runCompaction } from './run-compaction';
import { summaryIsDue } from './stages/summarize-old-dialogue';

/** Stands in for the user's next message when measuring after a final answer. */
const NEXT_TURN: Message = { role: 'user', content: '' };

/** What a background summary needs besides the conversation. */
export interface BackgroundSummaryOptions {
  effective: ResolvedCompactionOptions;
  window: number;
  overheadTokens: number;
  responseTokens: number;
  abortSignal: AbortSignal | undefined;
  /**
   * Whether the response ended the user's turn: the next request starts a new one, and what is the
   * current turn now will be history then (reducible, and summarizable).
   */
  turnFinished: boolean;
}

/**
 * Summarizes in the background when the next request, with every reduction that needs no model
 * taken (every tool result of the history cleared, every finished turn folded), would be over the
 * trigger (see `requestBudget`) — unless a turn in progress outweighs the dialogue before it while
 * that dialogue alone is under the trigger (see `dialogueFillsWindow`). Takes the store's lease
 * when it has one; another instance already at it means this one goes on. Never rejects.
 */
export function startBackgroundSummary(
  runtime: CompactorRuntime,
  id: string,
  conversation: readonly Message[],
  { effective, window, overheadTokens, responseTokens, abortSignal, turnFinished }: BackgroundSummaryOptions,
): Promise<void> {
  const { shared, resolved, cooldowns } = runtime;
  return runtime.flights.track(id, 'background', async () => {
    let release: (() => Promise<void>) | undefined;
    const messages = turnFinished ? [...conversation, NEXT_TURN] : conversation;
    // A turn in progress counted by its ask alone: the dialogue (see `dialogueFillsWindow`).
    const dialogue = turnFinished ? undefined : conversation.slice(0, currentTurnStart(conversation) + 1);
    try {
      const budget = requestBudget(window, effective);
      const measure = async (list: readonly Message[], stored: CompactionState | undefined) =>
        (
          await runCompaction(list, effective, {
            state: applicable(list, stored),
            conversationId: id,
            overheadTokens,
            contextWindow: window,
            allowSummarize: false,
            mode: 'measure',
          })
        ).tokensAfter;
      // Over the trigger, and due by the request's own rule (`summaryIsDue`): a turn in progress
      // that outweighs the dialogue drops old turns from its own requests instead.
      const over = async (stored: CompactionState | undefined) => {
        const next = (await measure(messages, stored)) + responseTokens;
        if (next < budget.summaryTriggerTokens) return false;
        if (dialogue === undefined) return true;
        const spoken = await measure(dialogue, stored);
        return summaryIsDue({ dialogue: spoken, turn: next - spoken, trigger: budget.summaryTriggerTokens });
      };
      // A stored summary only makes the request smaller: under the trigger without one, the store
      // need not be asked.
      if (!(await over(undefined))) return;
      const loaded = await shared.read(id);
      if (loaded.revision === undefined || !(await over(loaded.state))) return;
      // Another instance compacting this conversation: go on without waiting.
      const claim = await claimSummary(shared, id, {
        loaded: { state: loaded.state, revision: loaded.revision },
        stillNeeded: over,
      });
      if (claim.kind === 'skip') return;
      release = claim.lease?.release;
      const result = await runCompaction(messages, effective, {
        state: applicable(messages, claim.loaded.state),
        conversationId: id,
        overheadTokens,
        contextWindow: window,
        mode: 'summarize',
        summarizeReason: 'background',
        ...(abortSignal === undefined ? {} : { abortSignal }),
      });
      if (result.stateChanged && result.state) {
        await shared.write(id, result.state, { revision: claim.loaded.revision, lease: claim.lease });
        cooldowns.clear(id);
      }
    } catch (error) {
      if (!abortSignal?.aborted) cooldowns.noteFailure(id, 'background');
      resolved.onEvent({
        type: 'compaction-failed',
        conversationId: id,
        reason: 'background',
        error,
        fallback: 'none',
      });
    } finally {
      await release?.();
    }
  });
}
