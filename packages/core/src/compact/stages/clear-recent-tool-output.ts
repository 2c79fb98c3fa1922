import type { Stage } from '../stage';
import { fitHistory } from './fit-history';

/**
 * When the steady levels cannot fit: the newest tool results of the history become stubs too, then
 * every finished turn folds its tool steps, up to the newest — before any word of the dialogue is
 * summarized. These levels move with every turn (each request changes the prompt's prefix): they
 * bridge until the summary that the background starts in that case is ready.
 */
export const clearRecentToolOutput: Stage = {
  name: 'clear recent tool output',
  run: (draft, context) => fitHistory(draft, context, 'all'),
};
