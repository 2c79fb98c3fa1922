import {
  firstQuery,
  queryTerms,
  type SearchQuery,
  secondQuery,
  termOverlap,
} from '../questions/query-policy';
import type { BenchRequest } from '../request/bench-request';
import { messageTexts } from '../request/bench-request';
import type { ReadBack, ReadBackCall } from './strategy';

/** A reference to cut material that a request shows the model, with the text just before it. */
export interface VisibleReference {
  reference: string;
  /** Up to 400 characters of the request before the reference (what tells the model what it is). */
  context: string;
}

/** One hit a search listed: the reference to read and the line it showed. */
export interface SearchHit {
  reference: string;
  line: string;
}

/** The primitives of one strategy's read-back tool, as the model would call them. */
export interface ReadBackTools {
  /** The tool's name as the model sees it. */
  toolName: string;
  /** Finds the references in a request, in order. */
  referencePattern: RegExp;
  /**
   * Searches the cut material for a query of the policy, in the tool's own query language (a tool
   * that takes a regular expression searches `linePattern(query.terms)`, one that takes a literal
   * string `query.literal`); the tool's answer and the hits it lists, in its order.
   */
  search?: (query: SearchQuery) => Promise<{ output: string; hits: SearchHit[] }>;
  /** Reads one reference; the tool's answer. */
  read: (reference: string) => Promise<string>;
  /** The `input` recorded for a search call (how the tool is really called). */
  searchInput?: (query: SearchQuery) => unknown;
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

/** The item sharing most terms with the question; ties go to the later one (the newest). */
function best<T>(items: readonly T[], text: (item: T) => string, terms: readonly string[]): T | undefined {
  let chosen: T | undefined;
  let score = 0;
  for (const item of items) {
    const overlap = termOverlap(text(item), terms);
    if (overlap > 0 && overlap >= score) {
      chosen = item;
      score = overlap;
    }
  }
  return chosen;
}

/**
 * A {@link ReadBack} that plays the model the same way for every strategy, with that strategy's own
 * tool, following the query policy (`src/questions/query-policy.ts`): the terms of the question;
 * with a search, search them, then read the listed hit sharing most terms with the question (ties:
 * the later); when the search listed none, read the reference shown in the request whose preceding
 * text shares most terms with the question, or, when none shares any, search again with the two
 * longest terms. Without a search, read the two shown references whose preceding text shares most
 * terms with the question. Never more than `maxCalls` calls.
 */
export function toolReadBack(tools: ReadBackTools): ReadBack {
  const searchInput = tools.searchInput ?? ((query: SearchQuery) => ({ query: query.terms.join(' ') }));
  const readInput = tools.readInput ?? ((reference: string) => ({ reference }));
  return async ({ request, question, maxCalls }) => {
    const calls: ReadBackCall[] = [];
    const terms = queryTerms(question.text);
    if (terms.length === 0 || maxCalls <= 0) return calls;
    const read = async (reference: string) => {
      calls.push({
        toolName: tools.toolName,
        input: readInput(reference),
        output: await tools.read(reference),
      });
    };
    if (tools.search) {
      const first = firstQuery(terms);
      let result = await tools.search(first);
      calls.push({ toolName: tools.toolName, input: searchInput(first), output: result.output });
      if (calls.length >= maxCalls) return calls;
      if (result.hits.length === 0) {
        const shown = best(visibleReferences(request, tools.referencePattern), (item) => item.context, terms);
        if (shown !== undefined) {
          await read(shown.reference);
          return calls;
        }
        const second = secondQuery(terms);
        result = await tools.search(second);
        calls.push({ toolName: tools.toolName, input: searchInput(second), output: result.output });
        return calls;
      }
      const hit = best(result.hits, (item) => item.line, terms) ?? result.hits.at(-1)!;
      await read(hit.reference);
      return calls;
    }
    const visible = visibleReferences(request, tools.referencePattern);
    const seen = new Set<string>();
    while (calls.length < maxCalls) {
      const next = best(
        visible.filter((item) => !seen.has(item.reference)),
        (item) => item.context,
        terms,
      );
      if (next === undefined) break;
      seen.add(next.reference);
      await read(next.reference);
    }
    return calls;
  };
}
