/**
 * Identifiers worth keeping through a summary: URLs, e-mail addresses, file paths and names with an
 * extension, numbers of three or more digits (and decimals), and ticket-style ids. Unique, in order
 * of first appearance. Cheap and deterministic: used to audit model summaries and by
 * `extractiveSummarizer`.
 */
export function extractIdentifiers(text: string, { limit = 200 }: { limit?: number } = {}): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(IDENTIFIER)) {
    const identifier = trimTrailing(match[0]);
    if (identifier.length < 3) continue;
    found.add(identifier);
    if (found.size >= limit) break;
  }
  return [...found];
}

const IDENTIFIER = new RegExp(
  [
    String.raw`\bhttps?://[^\s<>"'\`)\]]+`, // URLs
    String.raw`\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b`, // e-mail addresses
    String.raw`(?:~|\.{1,2})?(?:/[\w.@+-]+){2,}/?`, // absolute and relative paths
    String.raw`\b[A-Za-z]:\\[^\s"'<>|]+`, // Windows paths
    String.raw`\b[\w-]{2,}(?:/[\w.-]+)*\.[A-Za-z][A-Za-z0-9]{0,5}\b`, // file names and relative paths
    String.raw`\b[A-Z][A-Z0-9]{1,9}-\d+\b`, // ticket ids such as ABC-123
    String.raw`(?<![\w.])v?\d+(?:\.\d+)+\b`, // decimals and versions (v1.2.3)
    String.raw`\b\d{3,}\b`, // numbers of three or more digits
  ].join('|'),
  'g',
);

function trimTrailing(identifier: string): string {
  return identifier.replace(/[.,;:!?]+$/, '');
}

/** Share (0–1) of `identifiers` that occur in `text`; 1 when there are none. */
export function identifierCoverage(identifiers: readonly string[], text: string): number {
  if (identifiers.length === 0) return 1;
  let kept = 0;
  for (const identifier of identifiers) if (text.includes(identifier)) kept++;
  return kept / identifiers.length;
}
