import type { CompactionEvent } from '@spillway/core';

/** What a UI shows for a compaction event. */
export interface CompactionStatus {
  /**
   * - `compacting`: a summary is being made now ("Optimizing conversation context…");
   * - `compacted`: it is done;
   * - `failed`: the summary could not be made (nothing was dropped; it is tried again later);
   * - `trimmed`: older messages left the request ("Conversation history has been automatically trimmed");
   * - `truncated`: large tool outputs or old images were shortened;
   * - `retrying`: the provider said the prompt was too long; compacting and retrying.
   */
  status: 'compacting' | 'compacted' | 'failed' | 'trimmed' | 'truncated' | 'retrying';
  /** A sentence to show as is. */
  message: string;
  conversationId: string;
  tokensBefore?: number;
  tokensAfter?: number;
  /** Messages that left the request (`trimmed`). */
  droppedCount?: number;
}

/** A UI message stream data part (`createUIMessageStream`'s `writer.write`), typed `data-spillway`. */
export interface CompactionDataPart {
  type: 'data-spillway';
  /** Parts with the same id replace each other in `useChat`, so one indicator updates in place. */
  id: string;
  data: CompactionStatus;
  /** Progress that need not stay in the message history. */
  transient?: boolean;
}

/** The UI sentence for the "optimizing" indicator. */
export const COMPACTING_MESSAGE = 'Optimizing conversation context…';
/** The UI sentence when a summary could not be made and nothing was dropped. */
export const FAILED_MESSAGE = 'Could not optimize the conversation context this time; nothing was removed';
/** The UI sentence for the "trimmed" notice. */
export const TRIMMED_MESSAGE = 'Conversation history has been automatically trimmed';

/**
 * Turns a compaction event into a UI data part: "Optimizing conversation context…" while a summary
 * is made (updated in place when it is done), "Conversation history has been automatically
 * trimmed" when older messages left the request. Undefined for events a UI need not show.
 */
export function compactionDataPart(event: CompactionEvent): CompactionDataPart | undefined {
  const { conversationId } = event;
  const indicator = `spillway-${conversationId}`;
  switch (event.type) {
    case 'compaction-start':
      return {
        type: 'data-spillway',
        id: indicator,
        data: {
          status: 'compacting',
          message: COMPACTING_MESSAGE,
          conversationId,
          tokensBefore: event.tokensBefore,
        },
      };
    case 'compaction-end':
      return {
        type: 'data-spillway',
        id: indicator,
        data: {
          status: 'compacted',
          message: `Conversation context optimized (${event.tokensBefore} → ${event.tokensAfter} tokens)`,
          conversationId,
          tokensBefore: event.tokensBefore,
          tokensAfter: event.tokensAfter,
        },
      };
    case 'compaction-failed':
      // The indicator a `compaction-start` showed is replaced either way, so it never stays up.
      return {
        type: 'data-spillway',
        id: indicator,
        data:
          event.fallback === 'drop-oldest'
            ? { status: 'trimmed', message: TRIMMED_MESSAGE, conversationId }
            : { status: 'failed', message: FAILED_MESSAGE, conversationId },
      };
    case 'emergency-truncation':
      return {
        type: 'data-spillway',
        id: `spillway-trimmed-${conversationId}`,
        data: {
          status: 'trimmed',
          message: TRIMMED_MESSAGE,
          conversationId,
          droppedCount: event.droppedCount,
          tokensBefore: event.tokensBefore,
          tokensAfter: event.tokensAfter,
        },
      };
    case 'overflow-retry':
      return {
        type: 'data-spillway',
        id: indicator,
        data: { status: 'retrying', message: COMPACTING_MESSAGE, conversationId },
        transient: true,
      };
    case 'truncation':
      return {
        type: 'data-spillway',
        id: `spillway-truncated-${conversationId}`,
        data: {
          status: 'truncated',
          message: `Shortened ${event.records.length} large tool output${event.records.length === 1 ? '' : 's'} or image${event.records.length === 1 ? '' : 's'}`,
          conversationId,
        },
        transient: true,
      };
  }
}
