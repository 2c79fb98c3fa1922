/** A step `compactMessages` took, in order. */
export type CompactionAction =
  | 'cap-tool-results'
  | 'tool-result-media'
  | 'apply-summary'
  | 'replace-images'
  | 'supersede-tool-results'
  | 'collapse-exchanges'
  | 'cluster-tool-results'
  | 'reduce-tool-results'
  | 'stub-tool-results'
  | 'shorten-pasted-blobs'
  | 'fold-tool-steps'
  | 'summarize'
  | 'summarize-failed'
  | 'drop-oldest'
  | 'shrink-current-turn';

/** Every action, in pipeline order (how `actions` lists them). */
export const ACTION_ORDER: readonly CompactionAction[] = [
  'cap-tool-results',
  'tool-result-media',
  'apply-summary',
  'replace-images',
  'supersede-tool-results',
  'collapse-exchanges',
  'cluster-tool-results',
  'reduce-tool-results',
  'stub-tool-results',
  'shorten-pasted-blobs',
  'fold-tool-steps',
  'summarize',
  'summarize-failed',
  'drop-oldest',
  'shrink-current-turn',
];
