import { RECALL_ANSWER_MAX_CHARS, readRecallPage, searchRecall } from '@spillway/core';
import type { ModelMessage } from 'ai';
import { linePattern } from '../questions/query-policy';
import { messageTexts } from '../request/bench-request';
import { fromLanguageModelPrompt } from '../request/from-language-model-prompt';
import type { ReadBack } from './strategy';
import { toolReadBack } from './tool-read-back';

/** Characters read before a search match, so the page opens on what leads up to it. */
const LEAD_CHARS = 300;

/**
 * A plain search tool over the whole transcript the application holds (every message's text,
 * tool results included, one source per message), with the same search and page format and the
 * same answer size as `spillway_recall` (`searchRecall` and `readRecallPage` of `@spillway/core`,
 * 8,000 characters an answer), driven by the same query policy as every strategy's read-back. With
 * a strategy that sends nothing, it shows what search alone finds.
 */
export function transcriptReadBack(): ReadBack {
  let cached: { history: readonly ModelMessage[]; sources: { ref: string; text: string }[] } | undefined;
  const sourcesOf = (history: readonly ModelMessage[]) => {
    if (cached?.history !== history) {
      const request = fromLanguageModelPrompt(history);
      cached = {
        history,
        sources: request.map((message, index) => ({
          ref: `m${index}`,
          text: messageTexts(message).join('\n'),
        })),
      };
    }
    return cached.sources;
  };
  return (input) => {
    const sources = sourcesOf(input.history);
    const byRef = new Map(sources.map((source) => [source.ref, source.text]));
    return toolReadBack({
      toolName: 'search_transcript',
      referencePattern: /\bm\d+@\d+\b/,
      search: async (query) => {
        const result = searchRecall({
          sources,
          pattern: linePattern(query.terms),
          maxChars: RECALL_ANSWER_MAX_CHARS,
          // Like spillway_recall's under the benchmark (see withStillClock): no time limit.
          timeLimitMs: Number.POSITIVE_INFINITY,
        });
        return {
          output: result.text,
          hits: result.matches.map((match) => ({
            reference: `${match.ref}@${match.offset}`,
            line: match.line,
          })),
        };
      },
      read: async (reference) => {
        const [ref, at] = reference.split('@');
        const text = byRef.get(ref ?? '') ?? '';
        return readRecallPage({
          ref: ref ?? '',
          text,
          offset: Math.max(0, Number(at ?? 0) - LEAD_CHARS),
          length: RECALL_ANSWER_MAX_CHARS,
        }).text;
      },
      searchInput: (query) => ({ search: linePattern(query.terms) }),
      readInput: (reference) => ({ ref: reference.split('@')[0], offset: reference.split('@')[1] }),
    })(input);
  };
}
