import type { PinnedQuote } from '../store/compaction-state';

/** The line after which the summary lists the user's standing instructions (see the default prompt). */
export const STANDING_INSTRUCTIONS_HEADING = 'Standing instructions:';

/** Shortest and longest quote taken as a standing instruction, in characters. */
const MIN_QUOTE_CHARS = 12;
const MAX_QUOTE_CHARS = 400;

/**
 * Splits a summary into its text and the standing instructions it lists after a
 * `Standing instructions:` line (one per line, bullets and quotes stripped; `none` means none). A
 * summary without that line is returned whole with no quotes.
 */
export function splitStandingInstructions(summary: string): { summary: string; quotes: string[] } {
  const match = /^[ \t>*#-]*\**standing instructions\**:?\**[ \t]*(.*)$/im.exec(summary);
  if (match === null) return { summary, quotes: [] };
  const before = summary.slice(0, match.index).trimEnd();
  const after = [match[1] ?? '', ...summary.slice(match.index + match[0].length).split('\n')];
  const quotes: string[] = [];
  let rest = '';
  for (let index = 0; index < after.length; index++) {
    const line = after[index]!.trim();
    if (line === '') {
      if (quotes.length > 0) {
        rest = after
          .slice(index + 1)
          .join('\n')
          .trim();
        break;
      }
      continue;
    }
    const quote = line
      .replace(/^(?:[-*•]|\d{1,2}[.)])\s+/, '')
      .replace(/^["“'‘«]+|["”'’»]+$/g, '')
      .trim();
    if (/^(?:none|n\/a|-)\.?$/i.test(quote)) continue;
    quotes.push(quote);
  }
  return { summary: rest === '' ? before : `${before}\n\n${rest}`, quotes };
}

/**
 * The quotes found verbatim (whitespace aside) in one of `userTexts`, each with the number of the
 * first message that holds it; anything the user did not write is refused, so a summarizer (or an
 * instruction planted in a tool result) cannot pin words of its own.
 */
export function acceptStandingInstructions(
  quotes: readonly string[],
  userTexts: readonly { number: number; text: string }[],
): PinnedQuote[] {
  const normalized = userTexts.map(({ number, text }) => ({ number, text: flat(text) }));
  const accepted: PinnedQuote[] = [];
  for (const quote of quotes) {
    const words = flat(quote);
    if (words.length < MIN_QUOTE_CHARS || words.length > MAX_QUOTE_CHARS) continue;
    if (accepted.some((known) => known.text === words)) continue;
    const source = normalized.find((entry) => entry.text.includes(words));
    if (source !== undefined) accepted.push({ text: words, messageNumber: source.number });
  }
  return accepted;
}

function flat(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
