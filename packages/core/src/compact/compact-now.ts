import { InvalidConfigError } from '../errors/invalid-config-error';
import type { Message } from '../message/message';
import type { CompactionState } from '../store/compaction-state';
import { SUMMARY_INSTRUCTIONS_MAX_CHARS, withSummaryInstructions } from '../summarize/summary-instructions';
import { claimSummary } from './claim-summary';
import type { CompactOptions } from './compactor';
import { applicable, type CompactorRuntime, withOverrides } from './compactor-runtime';
import { deriveConversationId } from './conversation-id';
import { recognizeMessages } from './recognize-messages';
import { runCompaction } from './run-compaction';

/**
 * `Compactor.compact`: summarizes what is older than the protected window now, whatever the usage,
 * under the store's lease, and stores the new state. Joins another manual or request-time
 * compaction already running for the conversation instead of starting one; waits for a background
 * summary, then compacts (the background one may have found nothing due).
 */
export async function compactNow(
  runtime: CompactorRuntime,
  messages: readonly Message[],
  {
    conversationId,
    model,
    provider,
    contextWindow,
    modelContextWindow,
    abortSignal,
    instructions,
    protectedRatio,
  }: CompactOptions = {},
): Promise<CompactionState | undefined> {
  const { resolved, shared, flights, cooldowns, windows } = runtime;
  abortSignal?.throwIfAborted();
  if (instructions !== undefined && typeof instructions !== 'string') {
    throw new InvalidConfigError({
      option: 'instructions',
      value: instructions,
      message: 'must be a string',
    });
  }
  if (instructions !== undefined && instructions.length > SUMMARY_INSTRUCTIONS_MAX_CHARS) {
    throw new InvalidConfigError({
      option: 'instructions',
      value: `${instructions.slice(0, 40)}…`,
      message: `must be at most ${SUMMARY_INSTRUCTIONS_MAX_CHARS} characters`,
    });
  }
  if (
    protectedRatio !== undefined &&
    !(
      typeof protectedRatio === 'number' &&
      protectedRatio >= 0 &&
      protectedRatio < resolved.thresholds.compact
    )
  ) {
    throw new InvalidConfigError({
      option: 'protectedRatio',
      value: protectedRatio,
      message: `must be a share of the context window, at least 0 and below the compact threshold (${resolved.thresholds.compact})`,
    });
  }
  const id = conversationId ?? deriveConversationId(messages);
  recognizeMessages(messages, { conversationId: id, scope: resolved.estimator });
  const running = flights.get(id);
  if (running) {
    await running.promise.catch(() => {});
    // Another manual or request-time compaction: its result is the answer. A background summary
    // may have found nothing due (its own thresholds); the caller asked for one now, so go on.
    if (running.kind === 'request') return applicable(messages, (await shared.read(id)).state);
  }
  const window = windows.windowFor(model ?? resolved.model, contextWindow, id, modelContextWindow);
  const overridden = withOverrides(resolved, model, provider);
  const summaryPrompt = withSummaryInstructions(overridden.summaryPrompt, instructions);
  const effective =
    summaryPrompt === overridden.summaryPrompt && protectedRatio === undefined
      ? overridden
      : { ...overridden, summaryPrompt, ...(protectedRatio === undefined ? {} : { protectedRatio }) };
  return flights.track(id, 'request', async () => {
    const loaded = await shared.read(id);
    let state = applicable(messages, loaded.state);
    let revision = loaded.revision;
    let claim: Awaited<ReturnType<typeof claimSummary>> | undefined;
    if (revision !== undefined) {
      claim = await claimSummary(shared, id, {
        loaded: { state: loaded.state, revision },
        stillNeeded: () => true,
        wait: { deadline: Date.now() + resolved.summaryTimeouts.foreground, abortSignal },
      });
      // Another instance compacted it (or the store failed): that is the answer.
      if (claim.kind === 'skip') return applicable(messages, claim.loaded.state);
      state = applicable(messages, claim.loaded.state);
      revision = claim.loaded.revision;
    }
    const held = claim?.kind === 'claimed' ? claim.lease : undefined;
    try {
      const result = await runCompaction(messages, effective, {
        state,
        conversationId: id,
        contextWindow: window,
        mode: 'summarize',
        summarizeReason: 'manual',
        ...(abortSignal === undefined ? {} : { abortSignal }),
      });
      if (result.stateChanged && result.state) {
        await shared.write(id, result.state, { revision, lease: held });
        cooldowns.clear(id);
      }
      return result.state;
    } finally {
      await held?.release();
    }
  });
}
