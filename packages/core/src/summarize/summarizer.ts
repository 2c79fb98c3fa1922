import type { Message } from '../message/message';

/** What a {@link Summarizer} is asked to summarize. */
export interface SummarizerInput {
  /** Instructions for the summarizing model (send as its system prompt). */
  readonly system: string;
  /** The ready-to-send request: the previous summary (if any) and the transcript. */
  readonly prompt: string;
  /** The messages this call covers, oldest first. */
  readonly messages: readonly Message[];
  /** The summary being extended, when merging (cumulative mode, or a later chunk). */
  readonly previousSummary: string | undefined;
  /** `messages` rendered as a plain-text transcript (what `prompt` contains). */
  readonly transcript: string;
  /**
   * The bound on the summary in tokens: a longer summary is a failed attempt. A model summarizer
   * should pass it on as its output limit; the prompt already states it.
   */
  readonly maxTokens?: number;
  /**
   * Aborts the call: when the request that needed it was cancelled, or at the summary's deadline
   * (the engine abandons a call that ignores it). Pass it to the model call.
   */
  readonly abortSignal?: AbortSignal;
  /** The conversation being compacted, when the caller knows it (to pick a model, to log). */
  readonly conversationId?: string;
}

/** A summarizer may also hand back durable facts for the application's long-term memory. */
export interface SummarizerOutput {
  readonly summary: string;
  readonly memories?: readonly string[];
}

/**
 * Turns a span of conversation into a summary. Adapters supply one that calls a model (AI SDK:
 * `generateText`; LangChain: `model.invoke`); `extractiveSummarizer` needs no model. Throwing or
 * returning blank text counts as a failure.
 */
export type Summarizer = (
  input: SummarizerInput,
) => Promise<string | SummarizerOutput> | string | SummarizerOutput;
