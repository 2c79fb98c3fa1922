import type { PinnedRule } from './collect-pinned-rules';

/** The most tokens the pinned block takes, whatever the window. */
export const PINNED_RULES_MAX_TOKENS = 1_000;
/** The most the pinned block takes, as a share of the context window. */
export const PINNED_RULES_WINDOW_SHARE = 0.05;

/** The first line of the pinned block. */
export const PINNED_RULES_HEADING =
  'Pinned rules: standing instructions from the user, quoted verbatim from the messages named. They stay in force until the user changes them.';

/** What {@link pinnedBlock} returns. */
export interface PinnedBlock {
  /** The block's text; `undefined` when no rule is carried. */
  readonly text: string | undefined;
  /** The rules in the block, oldest first. */
  readonly kept: readonly PinnedRule[];
  /** The rules left out to stay within the bound (the oldest first). */
  readonly evicted: readonly PinnedRule[];
}

/**
 * The pinned block for `rules`: the heading, then one line per rule, `- "{rule}" (message {n})`,
 * with `, updates the rule from message {m}` for a rule that replaced another. When the block is
 * over `maxTokens`, the oldest rules are left out until it fits.
 */
export function pinnedBlock(
  rules: readonly PinnedRule[],
  { maxTokens, countText }: { maxTokens: number; countText: (text: string) => number },
): PinnedBlock {
  const lines = rules.map(ruleLine);
  let first = 0;
  let text = render(lines, first);
  while (text !== undefined && countText(text) > maxTokens) {
    first++;
    text = render(lines, first);
  }
  return { text, kept: rules.slice(first), evicted: rules.slice(0, first) };
}

function ruleLine(rule: PinnedRule): string {
  const where =
    rule.updates === undefined
      ? `message ${rule.messageNumber + 1}`
      : `message ${rule.messageNumber + 1}, updates the rule from message ${rule.updates + 1}`;
  return `- "${rule.text}" (${where})`;
}

function render(lines: readonly string[], first: number): string | undefined {
  if (first >= lines.length) return undefined;
  return [PINNED_RULES_HEADING, ...lines.slice(first)].join('\n');
}
