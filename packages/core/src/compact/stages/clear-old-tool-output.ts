import type { Stage } from '../stage';
import { fitHistory } from './fit-history';

/**
 * Tool output by age, oldest first and a batch at a time: a batch of old tool results becomes
 * head+tail previews, the batch before it one-line stubs (what the result was, the identifiers it
 * mentioned, its reference), images become placeholders and pasted logs and code are shortened;
 * stale and duplicate results become notes, near-duplicates their line diff. The newest results
 * (the protected window) are reached last. The words of the dialogue are never touched.
 */
export const clearOldToolOutput: Stage = {
  name: 'clear old tool output',
  run: (draft, context) => fitHistory(draft, context, 'clear'),
};
