import type { LanguageModelV4 } from '@ai-sdk/provider';

/**
 * The summarizer of a run: the scripted stand-in (`summarize`, deterministic) or a real model
 * (`model`, from `--summarizer`). Every strategy that takes a summarizer gets the same one.
 */
export interface BenchSummarizer {
  /** Its label in the tables. */
  name: string;
  /** The scripted model: what it answers when sent `prompt` (everything it was sent, as text). */
  summarize?: (prompt: string) => string;
  /** A real model, called as each framework calls its summarizer. */
  model?: LanguageModelV4;
}
