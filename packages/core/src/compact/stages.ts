import type { Stage } from './stage';
import { clearOldToolOutput } from './stages/clear-old-tool-output';
import { clearRecentToolOutput } from './stages/clear-recent-tool-output';
import { condenseUserWords } from './stages/condense-user-words';
import { dropOldHistory } from './stages/drop-old-history';
import { foldOldToolSteps } from './stages/fold-old-tool-steps';
import { shrinkCurrentTurnStage } from './stages/shrink-current-turn-stage';
import { shrinkOversizedTurn } from './stages/shrink-oversized-turn';
import { summarizeOldDialogue } from './stages/summarize-old-dialogue';

/**
 * The reductions of a request over its target, in order; the orchestrator (`runCompaction`) runs
 * them until the request fits. Tool output goes first and the dialogue last, the user's words last
 * of all (DESIGN §8):
 *
 * 1. clear old tool output: previews, then stubs, a batch at a time, oldest first (structural
 *    notes where results are stale or duplicated; images to placeholders; pasted blobs shortened);
 * 2. fold old tool steps: a finished turn's calls and results become one line each;
 * 3. clear the recent tool output too, and fold every turn (levels that move with every turn,
 *    until the dialogue itself no longer fits and the background summary is ready);
 * 4. the current turn alone too large: shrink inside it first (no summary could make room);
 * 5. summarize old dialogue (the user's words of the span kept verbatim beside the summary);
 * 6. drop old history from this request, with a note (when no summary could be made);
 * 7. condense the oldest user words;
 * 8. shrink the current turn (then the summary and pinned block give way to a note).
 *
 * The history stages 1–3 take a step only when it gets the request as low as its aim (the reduction
 * target); a step that cannot is left to the next, deeper one, so the prefix breaks once, for a
 * step that lasts (stage 3 takes the best it has). Before any of them, under the threshold, the
 * orchestrator may take an early step of stages 1–2 (`stepEarly`): one that frees as much as a step
 * at the threshold must.
 */
export const STAGES: readonly Stage[] = [
  clearOldToolOutput,
  foldOldToolSteps,
  clearRecentToolOutput,
  shrinkOversizedTurn,
  summarizeOldDialogue,
  dropOldHistory,
  condenseUserWords,
  shrinkCurrentTurnStage,
];
