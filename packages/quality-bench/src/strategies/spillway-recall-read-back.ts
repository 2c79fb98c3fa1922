import { RECALL_REF_PATTERN, RECALL_TOOL_NAME } from '@spillway/core';
import { linePattern } from '../questions/query-policy';
import type { ReadBack } from './strategy';
import { toolReadBack } from './tool-read-back';
import { withStillClock } from './with-still-clock';

/** The part of Spillway's AI SDK read-back tool a read-back calls (`middleware.recallTool()`). */
export interface RecallExecutor {
  /** A text answer, or (for an image reference) an object carrying the image: read as text here. */
  execute(input: unknown, options: { messages?: readonly unknown[] }): Promise<unknown>;
}

/** Characters read before a search match, so the page opens on what leads up to it. */
const LEAD_CHARS = 300;

/**
 * Spillway's read-back, played like every strategy's ({@link toolReadBack}): `spillway_recall`
 * searches (a regular expression: a line holding every term of the question), then reads the page
 * at the hit that shares most terms with the question; the tool is
 * executed the way the AI SDK runs it, with the conversation the application holds as `messages`.
 * A search result names `{"ref","offset"}` pairs; each becomes a reference `ref@offset`, read from a
 * little before the match.
 */
export function spillwayRecallReadBack(tool: RecallExecutor): ReadBack {
  return (input) => {
    // The tool's search has a time limit; the clock is held still so what it finds does not depend
    // on the machine's load (see withStillClock).
    const run = async (args: Record<string, unknown>) => {
      const output = await withStillClock(() => tool.execute(args, { messages: input.history }));
      return typeof output === 'string' ? output : JSON.stringify(output);
    };
    const readArgs = (reference: string): Record<string, unknown> => {
      const [ref, at] = reference.split('@');
      const offset = at === undefined ? 0 : Math.max(0, Number(at) - LEAD_CHARS);
      return offset > 0 ? { ref, offset } : { ref };
    };
    return toolReadBack({
      toolName: RECALL_TOOL_NAME,
      referencePattern: new RegExp(RECALL_REF_PATTERN.source),
      search: async (query) => {
        const output = await run({ search: linePattern(query.terms) });
        const hits = [...output.matchAll(/^\{"ref":"([^"]+)","offset":(\d+)\}: (.*)$/gm)].map((match) => ({
          reference: `${match[1]}@${match[2]}`,
          line: match[3]!,
        }));
        return { output, hits };
      },
      read: (reference) => run(readArgs(reference)),
      searchInput: (query) => ({ search: linePattern(query.terms) }),
      readInput: readArgs,
    })(input);
  };
}
