/** A reference as {@link extractRecallRef} read it out of what a model passed. */
export interface ExtractedRecallRef {
  /** The reference itself, e.g. `t.Ab12Cd34Ef56`; empty when nothing like one was found. */
  readonly ref: string;
  /** The offset written next to it (`offset=1000`, `"offset":1000`), when there was one. */
  readonly offset: number | undefined;
}

/** Characters of a `ref` argument read, at most: a pasted marker line is far shorter. */
export const RECALL_REF_INPUT_MAX_CHARS = 2_000;

/** Spillway's own references (`t.`, `i.`, `s.{from}-{to}.`), wherever they stand in the text. */
const SPILLWAY_REF =
  /(?<![A-Za-z0-9_])(?:t\.[A-Za-z0-9]{12}|i\.[A-Za-z0-9]{12}|s\.\d{1,9}-\d{1,9}\.[A-Za-z0-9]{12})(?![A-Za-z0-9_])/;
/** `ref=…`, `ref: …`, `"ref":"…"` (any other host's reference, e.g. the MCP proxy's). */
const NAMED_REF = /(?:^|[^A-Za-z0-9_])["'`]?ref["'`]?\s*[=:]\s*["'`]?([^\s"'`[\]{}(),;]+)/i;
/** A page's header or last line: `[<ref>: characters 0–8000 of 12000]`, `[End of <ref>.]`. */
const PAGE_REF = /\[(?:End of )?([^\s"'`[\]{}(),;:]+?)(?::\s+(?:characters|offset)\s+\d|\.\])/;
/** `offset=1000`, `offset: 1000`, `"offset":1000`. */
const NAMED_OFFSET = /(?:^|[^A-Za-z0-9_])["'`]?offset["'`]?\s*[=:]\s*["'`]?(\d{1,15})(?!\d)/i;
/** What may open a reference copied with its frame: whitespace, quotes, brackets, braces. */
const OPENING = new Set([...' \t\r\n"\'`[]{}()<>']);
/** What may close it: the same, and trailing punctuation. */
const CLOSING = new Set([...OPENING, '.', ',', ';', ':', '!', '?']);

/**
 * Reads a reference out of the `ref` a model passed, in every form the markers print it:
 * `t.Ab12Cd34Ef56` as is, `[ref=t.Ab12Cd34Ef56]`, `ref=t.Ab12Cd34Ef56 offset=1000`,
 * `"ref=t.Ab12Cd34Ef56"`, `{"ref":"t.Ab12Cd34Ef56","offset":8000}` (a next-page or search line), a
 * page header `[t.Ab12Cd34Ef56: characters 0–8000 of 12000]` or last line `[End of t.Ab12Cd34Ef56.]`,
 * or a whole marker line pasted, with any quotes, brackets and whitespace around it. The offset written beside the reference comes back
 * too (`offset=`, `"offset":`), so the caller can start there when the model gave none of its own.
 * A host's own references (not `t.`/`i.`/`s.`) are found after `ref=` / `"ref":`, in a page's
 * header, else taken as the text with its frame stripped. Pure; linear in the input, which is read up to
 * {@link RECALL_REF_INPUT_MAX_CHARS} characters.
 */
export function extractRecallRef(value: string): ExtractedRecallRef {
  const text = value.slice(0, RECALL_REF_INPUT_MAX_CHARS);
  const spillway = SPILLWAY_REF.exec(text);
  if (spillway !== null) {
    return { ref: spillway[0], offset: offsetIn(text.slice(spillway.index + spillway[0].length)) };
  }
  const named = NAMED_REF.exec(text);
  if (named !== null) {
    const after = text.slice(named.index + named[0].length);
    return { ref: stripFrame(named[1]!), offset: offsetIn(after) ?? offsetIn(text.slice(0, named.index)) };
  }
  const page = PAGE_REF.exec(text);
  if (page !== null) return { ref: page[1]!, offset: undefined };
  const bare = stripFrame(text);
  // `ref=` with nothing after it names nothing.
  return { ref: /^ref\s*[=:]?$/i.test(bare) ? '' : bare, offset: undefined };
}

function offsetIn(text: string): number | undefined {
  const match = NAMED_OFFSET.exec(text);
  return match === null ? undefined : Number(match[1]);
}

/** `text` without the quotes, brackets, whitespace and trailing punctuation around it. */
function stripFrame(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && OPENING.has(text[start]!)) start++;
  while (end > start && CLOSING.has(text[end - 1]!)) end--;
  return text.slice(start, end);
}
