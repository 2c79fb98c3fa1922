/** The summarizer of a run: a deterministic stand-in for a model that writes summaries. */
export interface BenchSummarizer {
  /** Its label in the tables. */
  name: string;
  /** What the model answers when sent `prompt` (everything it was sent, as text). */
  summarize(prompt: string): string;
}
