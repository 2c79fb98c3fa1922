import { safeEnd } from '../truncate/cut-points';
import { RECALL_TOOL_NAME } from './recall-tool';

/** Options of {@link readRecallPage}. */
export interface ReadRecallPageOptions {
  /** The reference the text is known by (quoted in the header and the next-page hint). */
  ref: string;
  /** The whole original text behind `ref`. */
  text: string;
  /**
   * First character of the page (UTF-16 code units). An offset inside a surrogate pair starts the
   * page one character earlier, so the page never opens with half a character.
   * @default 0
   */
  offset?: number;
  /**
   * Characters in the page, at most: the host chooses it within its budget (a model's `length`,
   * capped). The page ends one character short rather than split a surrogate pair (and holds the
   * whole pair when `length` is 1 and the page starts with one).
   */
  length: number;
}

/** One page of a text, as {@link readRecallPage} returns it. */
export interface RecallPage {
  /** `header`, `page` and `footer`, one per line: what a tool returns as one text. */
  readonly text: string;
  /** `[<ref>: characters <start>–<end> of <total>]`, or that `offset` is past the end. */
  readonly header: string;
  /** Exactly `text.slice(start, end)` of the original: the pages concatenated give it back. */
  readonly page: string;
  /** The call that reads the next page, or that this is the end. */
  readonly footer: string;
  readonly start: number;
  readonly end: number;
  readonly total: number;
  /** Where the next page starts; `undefined` at the end. */
  readonly nextOffset: number | undefined;
}

/**
 * One page of the material behind a reference: `text.slice(start, end)` with a stable header saying
 * which characters of how many it holds, and a footer with the exact call that reads the next page
 * (or saying that this is the end). Following the footers from offset 0 reads every character once,
 * so the pages concatenated give back the original. Pure; costs O(page).
 */
export function readRecallPage({ ref, text, offset = 0, length }: ReadRecallPageOptions): RecallPage {
  const total = text.length;
  const requested = Number.isFinite(offset) ? Math.max(0, Math.floor(offset)) : total;
  if (requested >= total) {
    const header = `[${ref}: offset ${requested} is at or past the end (${total} characters)]`;
    const footer = `[End of ${ref}.]`;
    return page({ header, body: '', footer, start: total, end: total, total, nextOffset: undefined });
  }
  const start =
    isLowSurrogate(text.charCodeAt(requested)) && isHighSurrogate(text.charCodeAt(requested - 1))
      ? requested - 1
      : requested;
  const size = Number.isFinite(length) ? Math.max(1, Math.floor(length)) : total;
  const natural = Math.min(total, start + size);
  // One character short rather than half of one; a whole pair when that would leave nothing.
  const end = safeEnd(text, natural) > start ? safeEnd(text, natural) : Math.min(total, start + 2);
  const header = `[${ref}: characters ${start}–${end} of ${total}]`;
  const nextOffset = end < total ? end : undefined;
  const footer =
    nextOffset === undefined
      ? `[End of ${ref}.]`
      : `[Next page: ${RECALL_TOOL_NAME} {"ref":"${ref}","offset":${nextOffset}}]`;
  return page({ header, body: text.slice(start, end), footer, start, end, total, nextOffset });
}

function page({
  header,
  body,
  footer,
  start,
  end,
  total,
  nextOffset,
}: {
  header: string;
  body: string;
  footer: string;
  start: number;
  end: number;
  total: number;
  nextOffset: number | undefined;
}): RecallPage {
  return { text: `${header}\n${body}\n${footer}`, header, page: body, footer, start, end, total, nextOffset };
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
