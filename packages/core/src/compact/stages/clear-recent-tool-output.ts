import type { Stage } from '../stage';
import { fitHistory } from './fit-history';

/**
 * When no summary could make room (none may be made now, or it failed): the newest tool results of
 * the history become stubs too, then every finished turn folds its tool steps, up to the newest.
 * These levels move with every turn (each request changes the prompt's prefix), so they come only
 * after everything steadier; the words of the dialogue still stay.
 */
export const clearRecentToolOutput: Stage = {
  name: 'clear recent tool output',
  run: (draft, context) => fitHistory(draft, context, 'all'),
};
