import { DEFAULT_SUMMARY_PROMPT } from './default-summary-prompt';

/** The longest `instructions` a compaction takes, in characters (a longer text is refused). */
export const SUMMARY_INSTRUCTIONS_MAX_CHARS = 2_000;

/**
 * The summarizer's instructions with a caller's focus added (what to keep, e.g. from the
 * `spillway_compact` tool): `summaryPrompt` (the default prompt when undefined) followed by one
 * block quoting `instructions`. Blank `instructions` leave `summaryPrompt` as it is. The focus adds
 * to what the prompt already keeps; it cannot lift the summary's bound or its other rules.
 */
export function withSummaryInstructions(
  summaryPrompt: string | undefined,
  instructions: string | undefined,
): string | undefined {
  const focus = instructions?.trim() ?? '';
  if (focus === '') return summaryPrompt;
  return `${summaryPrompt ?? DEFAULT_SUMMARY_PROMPT}\n\nThis compaction was asked for with instructions on what to keep. Besides the above, keep in particular (within the same length limit):\n<keep>\n${focus}\n</keep>`;
}
