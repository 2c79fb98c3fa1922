import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { type ContextUsage, compactionMiddleware } from '@spillway/ai-sdk-middleware';
import { extractiveSummarizer, type Summarizer } from '@spillway/core';
import { generateText, type LanguageModel, wrapLanguageModel } from 'ai';
import { scriptedModel } from './scripted-model';

/**
 * The demo's context window in tokens: deliberately small, so that compaction shows within a few
 * turns. `SPILLWAY_CONTEXT_WINDOW` changes it.
 */
export const CONTEXT_WINDOW = Number(process.env.SPILLWAY_CONTEXT_WINDOW ?? 8_000);
/** How long the offline summarizer takes, so the indicator is visible for a moment. */
const SUMMARY_DELAY_MS = Number(process.env.SPILLWAY_SUMMARY_DELAY_MS ?? 1_500);

/** An AI SDK 6 model object (language model specification v3). */
type LanguageModelV3 = Extract<LanguageModel, { specificationVersion: 'v3' }>;

/** A real provider when its API key is set (the provider then writes the summaries too). */
function providerModel(): LanguageModelV3 | undefined {
  if (process.env.OPENAI_API_KEY) return createOpenAI()('gpt-4o-mini');
  if (process.env.ANTHROPIC_API_KEY) return createAnthropic()('claude-haiku-4-5');
  return undefined;
}

const provider = providerModel();

/** Which model answers: `scripted` (offline) or the provider's model id. */
export const MODEL_NAME = provider === undefined ? 'scripted (offline)' : provider.modelId;

/** Conversations whose summarizer is made to fail (the page's "summarizer outage" switch). */
const outages = new Set<string>();
/** Per conversation, who wants its context usage (the request streaming it to the page). */
const usageListeners = new Map<string, (usage: ContextUsage) => void>();

function sleep(milliseconds: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, milliseconds);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });
}

/**
 * Writes the summaries: the provider's model when there is one, else the deterministic extractive
 * summarizer after a short pause (a real model takes a moment too). During a simulated outage it
 * fails, and Spillway falls back to dropping the oldest messages from the request.
 */
const summarizer: Summarizer = async (input) => {
  if (outages.has(input.conversationId ?? '')) {
    await sleep(300, input.abortSignal);
    throw new Error('The summarizer is unavailable (simulated outage).');
  }
  if (provider !== undefined) {
    const { text } = await generateText({
      model: provider,
      system: input.system,
      prompt: input.prompt,
      abortSignal: input.abortSignal,
    });
    return text;
  }
  await sleep(SUMMARY_DELAY_MS, input.abortSignal);
  return extractiveSummarizer(input);
};

/** One middleware for the whole server: it holds the summaries and the per-conversation state. */
export const compaction = compactionMiddleware({
  contextWindow: CONTEXT_WINDOW,
  summarizer,
  // Try a failed summary again on the next request (the default waits 5 requests), so the outage
  // switch shows its fallback at once.
  retrySummaryAfter: 0,
  onContextUsage: (usage) => usageListeners.get(usage.conversationId)?.(usage),
});

/** The model the route handler calls: the provider's or the scripted one, wrapped with Spillway. */
export const chatModel = wrapLanguageModel({ model: provider ?? scriptedModel(), middleware: compaction });

/**
 * While a request streams: its conversation's context usage goes to `listener`, and with `outage`
 * its summarizer fails. Returns the function that ends both.
 */
export function watchConversation(
  conversationId: string,
  { listener, outage }: { listener: (usage: ContextUsage) => void; outage: boolean },
): () => void {
  usageListeners.set(conversationId, listener);
  if (outage) outages.add(conversationId);
  return () => {
    if (usageListeners.get(conversationId) === listener) usageListeners.delete(conversationId);
    outages.delete(conversationId);
  };
}
