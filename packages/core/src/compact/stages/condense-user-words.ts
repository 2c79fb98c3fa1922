import type { Stage } from '../stage';

/**
 * Last of the dialogue: when the request is still over with the history summarized or dropped, the
 * drop note's digest (made from the assistant's text and the tool stubs) gives way first; then the
 * user's own words kept beside the summary and in the note are condensed, the oldest first (their
 * bound halves until they fit, then the note keeps only its marker and reference). Standing
 * instructions among them stay in the pinned block.
 */
export const condenseUserWords: Stage = {
  name: 'condense the oldest user words',
  run(draft, context) {
    let current = draft;
    if (context.count(current) > context.targetTokens && current.digest !== undefined) {
      current = current.with({ digest: undefined });
    }
    let bound = draft.userWordsMaxTokens;
    while (context.count(current) > context.targetTokens && bound > 0) {
      bound = bound >= 64 ? Math.floor(bound / 2) : 0;
      current = current.with({ userWordsMaxTokens: bound });
    }
    if (context.count(current) > context.targetTokens && current.noteDetail) {
      current = current.with({ noteDetail: false });
    }
    return current;
  },
};
