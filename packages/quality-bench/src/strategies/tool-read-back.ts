import type { BenchRequest } from '../request/bench-request';
import { messageTexts } from '../request/bench-request';
import type { ReadBack, ReadBackCall } from './strategy';

/** A reference to cut material that a request shows the model, with the text just before it. */
export interface VisibleReference {
  reference: string;
  /** Up to 400 characters of the request before the reference (what tells the model what it is). */
  context: string;
}

/** The primitives of one strategy's read-back tool, as the model would call them. */
export interface ReadBackTools {
  /** The tool's name as the model sees it. */
  toolName: string;
  /** Finds the references in a request, in order. */
  referencePattern: RegExp;
  /** Searches the cut material; the tool's answer and the references it names, best first. */
  search?: (query: string) => Promise<{ output: string; references: string[] }>;
  /** Reads one reference; the tool's answer. */
  read: (reference: string) => Promise<string>;
  /** The `input` recorded for a search call (how the tool is really called). */
  searchInput?: (query: string) => unknown;
  /** The `input` recorded for a read call. */
  readInput?: (reference: string) => unknown;
}

/** Every reference `pattern` finds in the request's text, with the 400 characters before it. */
export function visibleReferences(request: BenchRequest, pattern: RegExp): VisibleReference[] {
  const found: VisibleReference[] = [];
  const global = new RegExp(
    pattern.source,
    pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`,
  );
  for (const message of request) {
    for (const text of messageTexts(message)) {
      for (const match of text.matchAll(global)) {
        const start = match.index ?? 0;
        found.push({ reference: match[0], context: text.slice(Math.max(0, start - 400), start) });
      }
    }
  }
  return found;
}

function words(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[\p{L}\p{N}_]{3,}/gu) ?? []);
}

/**
 * A {@link ReadBack} that plays the model the same way for every strategy, with that strategy's
 * own tool: with a search, it searches for the cue and reads the first reference the search names
 * (or, when it names none, the visible reference whose context shares most words with the cue);
 * without one, it reads the two visible references whose context shares most words with the cue.
 * Never more than `maxCalls` calls.
 */
export function toolReadBack(tools: ReadBackTools): ReadBack {
  const searchInput = tools.searchInput ?? ((query: string) => ({ query }));
  const readInput = tools.readInput ?? ((reference: string) => ({ reference }));
  return async ({ request, question, maxCalls }) => {
    const calls: ReadBackCall[] = [];
    const cueWords = words(question.cue);
    const ranked = visibleReferences(request, tools.referencePattern)
      .map((item, order) => {
        let overlap = 0;
        for (const word of words(item.context)) if (cueWords.has(word)) overlap++;
        return { ...item, overlap, order };
      })
      .filter((item) => item.overlap > 0)
      .sort((left, right) => right.overlap - left.overlap || right.order - left.order);
    const toRead: string[] = [];
    if (tools.search && calls.length < maxCalls) {
      const result = await tools.search(question.cue);
      calls.push({ toolName: tools.toolName, input: searchInput(question.cue), output: result.output });
      toRead.push(...result.references);
    }
    for (const item of ranked) toRead.push(item.reference);
    const seen = new Set<string>();
    for (const reference of toRead) {
      if (calls.length >= maxCalls) break;
      if (seen.has(reference)) continue;
      seen.add(reference);
      calls.push({
        toolName: tools.toolName,
        input: readInput(reference),
        output: await tools.read(reference),
      });
    }
    return calls;
  };
}
