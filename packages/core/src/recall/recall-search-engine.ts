import { LRUCache } from 'lru-cache';
import { RE2JS } from 're2js';

/** One step of a search: a match, nothing more in the range, or a stop at a limit. */
export type RecallSearchStep =
  | { readonly kind: 'match'; readonly index: number; readonly end: number }
  | { readonly kind: 'none' }
  | { readonly kind: 'stopped'; readonly at: number; readonly reason: 'size' | 'time' };

/** Finds matches of one pattern, block by block, within a size and a time limit. */
export interface RecallSearchEngine {
  /**
   * How the pattern is matched: `pattern` (RE2), `text` (no pattern syntax in it: literal text),
   * `invalid` (syntax RE2 refuses, e.g. lookaround: searched as the literal text it is),
   * `too-complex` (over {@link RECALL_SEARCH_MAX_PROGRAM} instructions: refused, nothing is found).
   */
  readonly kind: 'pattern' | 'text' | 'invalid' | 'too-complex';
  /** Instructions of the compiled pattern (for `pattern` and `too-complex`). */
  readonly programSize: number | undefined;
  /**
   * The first match in `text` that starts at or after `from` and before `end`; `none` when there is
   * none; `stopped` (with where the search would go on) when the limits ran out first.
   */
  find(text: string, from: number, end: number): RecallSearchStep;
}

/** Options of {@link createRecallSearchEngine}. */
export interface RecallSearchEngineOptions {
  pattern: string;
  /** Characters of material looked through, at most, over every `find` of this engine. */
  maxScanChars: number;
  /**
   * Milliseconds after which no new block or match is looked for, once {@link SEARCH_UNTIMED_WORK}
   * was done.
   */
  timeLimitMs: number;
  /** The clock, in milliseconds. */
  now: () => number;
}

/**
 * Work done before the time limit applies, so small material is searched whole however busy the
 * machine: for RE2, characters looked through times the pattern's instructions; for literal text,
 * characters (the platform's search takes a few milliseconds a megabyte at worst, whatever the text).
 */
export const SEARCH_UNTIMED_WORK = { pattern: 16_384, text: 16_777_216 } as const;
/** Instructions of a compiled pattern, at most: RE2's time is linear in the material times this. */
export const RECALL_SEARCH_MAX_PROGRAM = 120;
/** A pattern block's size, as characters times instructions (so each block takes about as long). */
const PATTERN_BLOCK_WORK = 16_384;
/** Characters a pattern block holds, at least and at most. */
const PATTERN_BLOCK_MIN_CHARS = 256;
const PATTERN_BLOCK_MAX_CHARS = 16_384;
/**
 * Instructions up to which a block is first tested in one pass by RE2's DFA (fast, but for a larger
 * pattern building its states can cost more than searching without it).
 */
const DFA_MAX_PROGRAM = 16;
/** Characters of real context either side of a piece of a long line. */
const PIECE_MARGIN_CHARS = 256;
/** Characters a literal search looks through per block. */
const LITERAL_BLOCK_CHARS = 1_048_576;
/** Characters that make a pattern more than literal text. */
const SYNTAX = /[.*+?^${}()|[\]\\]/;

interface Block {
  readonly text: string;
  /** Positions `from` may take in this block: [first, next). */
  readonly first: number;
  /** Where the next block starts. */
  readonly next: number;
  /** The first match starting at or after `position` and before `next`, if any. */
  find(position: number): { index: number; end: number } | undefined;
}

/**
 * The engine behind `searchRecall`. A pattern with syntax in it is compiled by RE2 (`re2js`, a
 * pure-JavaScript port: linear time in the material, whatever the pattern, so a model-supplied
 * `(a+)+$` cannot stall the process), case-insensitive, `^` and `$` at line ends; a pattern without
 * syntax, or one RE2 refuses (lookaround, backreferences), is searched as literal text with the
 * platform's own search; a pattern of more than {@link RECALL_SEARCH_MAX_PROGRAM} instructions is
 * refused (`kind: 'too-complex'`). Material is looked through in blocks ending at line ends (a line
 * longer than the block is searched in pieces, each with 256 characters of real context either side;
 * a match across a piece's end is missed, and so is the rest of a piece after one), a small pattern's
 * blocks first tested in one pass; the size and time limits are checked before each block and each
 * match. Blocks are smaller for larger patterns, so each takes about as long.
 */
export function createRecallSearchEngine({
  pattern,
  maxScanChars,
  timeLimitMs,
  now,
}: RecallSearchEngineOptions): RecallSearchEngine {
  const compiled = compile(pattern);
  const deadline = now() + timeLimitMs;
  let budget = maxScanChars;
  let work = 0;
  let block: Block | undefined;
  const untimed = compiled.kind === 'pattern' ? SEARCH_UNTIMED_WORK.pattern : SEARCH_UNTIMED_WORK.text;
  const overTime = () => work >= untimed && now() > deadline;
  return {
    kind: compiled.kind,
    programSize: compiled.programSize,
    find(text, from, end) {
      let position = from;
      while (position < end && compiled.block !== undefined) {
        if (block === undefined || block.text !== text || position < block.first || position >= block.next) {
          if (budget <= 0) return { kind: 'stopped', at: position, reason: 'size' };
          if (overTime()) return { kind: 'stopped', at: position, reason: 'time' };
          block = compiled.block(text, position);
          budget -= block.next - block.first;
          work += (block.next - block.first) * compiled.cost;
        } else if (overTime()) {
          return { kind: 'stopped', at: position, reason: 'time' };
        }
        const found = block.find(position);
        if (found !== undefined) return found.index < end ? { kind: 'match', ...found } : { kind: 'none' };
        position = block.next;
      }
      return { kind: 'none' };
    },
  };
}

interface Compiled {
  readonly kind: RecallSearchEngine['kind'];
  readonly programSize: number | undefined;
  /** Work per character looked through (RE2: the pattern's instructions; literal text: 1). */
  readonly cost: number;
  /** Undefined for a refused pattern. */
  readonly block: ((text: string, from: number) => Block) | undefined;
}

/**
 * Patterns compiled lately: RE2 builds its DFA lazily, state by state, so a pattern searched again
 * (a search that goes on, the next page of matches) runs on the states it already has.
 */
const compiledPatterns = new LRUCache<string, RE2JS | false>({ max: 8 });

function compileRe2(pattern: string): RE2JS | undefined {
  let re2 = compiledPatterns.get(pattern);
  if (re2 === undefined) {
    try {
      re2 = RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE | RE2JS.MULTILINE);
    } catch {
      // Not a pattern RE2 accepts: searched as the text it is.
      re2 = false;
    }
    compiledPatterns.set(pattern, re2);
  }
  return re2 === false ? undefined : re2;
}

function compile(pattern: string): Compiled {
  if (SYNTAX.test(pattern)) {
    const re2 = compileRe2(pattern);
    if (re2 !== undefined) {
      const programSize = re2.programSize();
      if (programSize > RECALL_SEARCH_MAX_PROGRAM) {
        return { kind: 'too-complex', programSize, cost: programSize, block: undefined };
      }
      const chars = Math.min(
        PATTERN_BLOCK_MAX_CHARS,
        Math.max(PATTERN_BLOCK_MIN_CHARS, Math.floor(PATTERN_BLOCK_WORK / Math.max(1, programSize))),
      );
      const matcher = re2;
      const dfa = programSize <= DFA_MAX_PROGRAM;
      return {
        kind: 'pattern',
        programSize,
        cost: Math.max(1, programSize),
        block: (text, from) => patternBlock(matcher, chars, dfa, text, from),
      };
    }
  }
  const regex = new RegExp(pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi');
  return {
    kind: SYNTAX.test(pattern) ? 'invalid' : 'text',
    programSize: undefined,
    cost: 1,
    block: (text, from) => literalBlock(regex, pattern.length, text, from),
  };
}

/**
 * A block for RE2: from the start of `from`'s line (when it is near) to the last line end within
 * `chars` characters, so `^`, `$` and `\b` see the real line ends. A line longer than `chars` is cut
 * into pieces, each read with real context either side; a match that runs into a piece's cut end is
 * not taken (it may go on, or `$` may have matched at the cut), and the rest of that piece is left.
 * With `dfa` (a small pattern) the block is first tested in one pass by RE2's DFA: only a block that
 * matches is searched for where.
 */
function patternBlock(re2: RE2JS, chars: number, dfa: boolean, text: string, from: number): Block {
  const lookBack = Math.max(0, from - chars);
  const newlineBefore = text.slice(lookBack, from).lastIndexOf('\n');
  const start =
    newlineBefore >= 0 ? lookBack + newlineBefore + 1 : lookBack === 0 ? 0 : from - PIECE_MARGIN_CHARS;
  const target = Math.min(text.length, from + chars);
  const newlineIn = text.slice(from, target).lastIndexOf('\n');
  let next: number;
  let bodyEnd: number;
  let cut = false;
  if (newlineIn >= 0) {
    // Up to the line end; a position on the line end itself belongs here too.
    bodyEnd = from + newlineIn;
    next = bodyEnd + 1;
  } else if (target === text.length) {
    bodyEnd = next = target;
  } else {
    // A piece of a long line, read on a little for context.
    next = target;
    const margin = text.slice(target, Math.min(text.length, target + PIECE_MARGIN_CHARS));
    const newlineAhead = margin.indexOf('\n');
    bodyEnd = newlineAhead >= 0 ? target + newlineAhead : target + margin.length;
    cut = newlineAhead < 0 && bodyEnd < text.length;
  }
  next = Math.max(next, from + 1);
  const body = text.slice(start, bodyEnd);
  const hit = !dfa || re2.test(body);
  let matcher: ReturnType<RE2JS['matcher']> | undefined;
  return {
    text,
    first: from,
    next,
    find(position) {
      if (!hit) return undefined;
      matcher ??= re2.matcher(body);
      if (!matcher.find(position - start)) return undefined;
      const index = start + matcher.start();
      const end = start + matcher.end();
      // A match into a piece's cut end may go on (or be `$` at the cut): the rest of the piece is left.
      return index >= next || (cut && end === bodyEnd) ? undefined : { index, end };
    },
  };
}

/**
 * A block for literal text: about a million characters from `from`, read with the text's length
 * on (less one) so a match that starts in the block is found whole; one that starts after it is
 * the next block's.
 */
function literalBlock(regex: RegExp, length: number, text: string, from: number): Block {
  const next = Math.min(text.length, from + LITERAL_BLOCK_CHARS);
  const body = text.slice(from, Math.min(text.length, next + Math.max(0, length - 1)));
  return {
    text,
    first: from,
    next: Math.max(next, from + 1),
    find(position) {
      regex.lastIndex = position - from;
      const match = regex.exec(body);
      if (match === null || from + match.index >= next) return undefined;
      return { index: from + match.index, end: from + match.index + match[0].length };
    },
  };
}
