import type { Stage } from '../stage';
import { fitHistory } from './fit-history';

/**
 * When every old tool result is a stub and the history still does not fit, finished turns fold
 * their tool steps, oldest first and a batch at a time: each call and its result become one line
 * at the head of one assistant message that keeps every word the assistant wrote in the turn. The
 * user's messages stay as they are.
 */
export const foldOldToolSteps: Stage = {
  name: 'fold old tool steps',
  run: (draft, context) => fitHistory(draft, context, 'steady'),
};
