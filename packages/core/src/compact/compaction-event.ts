import type { TruncationRecord } from '../truncate/truncation-record';

/** Why a compaction ran. */
export type CompactionReason = 'background' | 'threshold' | 'overflow' | 'manual';

/**
 * What the engine reports as it works, for UIs ("Optimizing conversation context…") and logs.
 * Every event names the conversation it concerns.
 */
export type CompactionEvent =
  | {
      type: 'compaction-start';
      conversationId: string;
      reason: CompactionReason;
      tokensBefore: number;
      messageCount: number;
    }
  | {
      type: 'compaction-end';
      conversationId: string;
      reason: CompactionReason;
      tokensBefore: number;
      tokensAfter: number;
      /** Conversation messages the summary now covers. */
      coveredCount: number;
      summarizerCalls: number;
      durationMs: number;
    }
  | {
      type: 'compaction-failed';
      conversationId: string;
      reason: CompactionReason;
      error: unknown;
      /**
       * What happened instead: `drop-oldest` (the oldest messages left this request only, with a
       * digest in their place; the UI notice "Conversation history has been automatically trimmed"),
       * or `none` (a background attempt; the next request decides).
       */
      fallback: 'drop-oldest' | 'none';
    }
  | {
      type: 'truncation';
      conversationId: string;
      /** What was shortened or replaced: tool results, images, superseded or duplicate results. */
      records: readonly TruncationRecord[];
    }
  | {
      type: 'emergency-truncation';
      conversationId: string;
      droppedCount: number;
      tokensBefore: number;
      tokensAfter: number;
    }
  | {
      type: 'overflow-retry';
      conversationId: string;
      /** 1 for the first retry after a provider's overflow error. */
      attempt: number;
      /** Message groups kept verbatim on this attempt. */
      keepGroups: number;
    };

/** Receives {@link CompactionEvent}s. Errors it throws are caught and ignored. */
export type CompactionEventHandler = (event: CompactionEvent) => void;
