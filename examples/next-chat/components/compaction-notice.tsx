import type { CompactionStatus } from '@spillway/ai-sdk-middleware';

/**
 * Spillway's `data-spillway` parts as the page shows them: the "Optimizing conversation context…"
 * indicator while a summary is made (replaced in place when it is done or failed), and the
 * "Conversation history has been automatically trimmed" notice.
 */
export function CompactionNotice({ status }: { status: CompactionStatus }) {
  switch (status.status) {
    case 'compacting':
    case 'retrying':
      return (
        <div className="notice notice-working" data-testid="compaction-indicator" role="status">
          <span className="spinner" aria-hidden="true" />
          {status.message}
        </div>
      );
    case 'compacted':
      return (
        <div className="notice notice-done" data-testid="compaction-done">
          {status.message}
        </div>
      );
    case 'failed':
      return (
        <div className="notice notice-failed" data-testid="compaction-failed">
          {status.message}
        </div>
      );
    case 'trimmed':
      return (
        <div className="notice notice-trimmed" data-testid="trimmed-notice" role="alert">
          {status.message}
          {status.droppedCount === undefined
            ? ''
            : ` (${status.droppedCount} older messages left this request)`}
        </div>
      );
    default:
      return null;
  }
}
