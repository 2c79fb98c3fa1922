import type { Stage } from '../stage';
import { fitHistory } from './fit-history';

/**
 * When the steady levels cannot fit (or get the request as low as its aim): the newest tool
 * results of the history become stubs too, then every finished turn folds its tool steps, up to the
 * newest — before any word of the dialogue is summarized. These levels move with every turn; the background summarizes only when even the
 * deepest of them leaves the next request over its trigger.
 */
export const clearRecentToolOutput: Stage = {
  name: 'clear recent tool output',
  run: (draft, context) => fitHistory(draft, context, 'all'),
};
