import type { PinnedRule } from '../pin/collect-pinned-rules';
import type { RecallEvictionReason } from '../recall/recall-archive';
import type { TruncationRecord } from '../truncate/truncation-record';
import type { ReductionLevel } from './reduction-level';

/** The store call that failed: reading the state, writing it, or taking/renewing/releasing the lease. */
export type StoreOperation = 'read' | 'write' | 'lease';

/**
 * Why a store call did not do its job. `unavailable`: it threw (store down, connection lost);
 * `timeout`: no answer within `storeTimeoutMs`; `unreadable`: the value under the key is not a
 * compaction state this version reads (corrupt, foreign, newer schema; it is left alone);
 * `conflict`: another writer stored a newer state first (this one is dropped, nothing is lost);
 * `fenced`: this compactor's lease expired and another instance took over (its write is dropped).
 */
export type StoreErrorReason = 'unavailable' | 'timeout' | 'unreadable' | 'conflict' | 'fenced';

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
      /**
       * A store call failed or was refused; the request never fails because of the store. When the
       * store is down or too slow (`unavailable`, `timeout`) the process goes on with states kept
       * in its own memory until the store answers again; an `unreadable` value means no stored
       * state for the request; a refused write (`conflict`, `fenced`) leaves the newer state.
       */
      type: 'store-error';
      conversationId: string;
      operation: StoreOperation;
      reason: StoreErrorReason;
      /** What the store threw, when it threw. */
      error?: unknown;
    }
  | {
      /**
       * The model's context window is unknown (not in the options, the built-in table or what
       * providers' errors have taught), so its conversations are not compacted. Once per model per
       * compactor (`conversationId` is the conversation that met it first). Set `contextWindow` or
       * `contextWindows` to fix it.
       */
      type: 'context-window-unknown';
      conversationId: string;
      /** The model id, when the adapter knows it. */
      model: string | undefined;
    }
  | {
      /**
       * A standing rule was left out of the pinned block of this request to keep the block within
       * `pinnedRules.maxTokens` (the oldest rules leave first). Its message is no longer in the
       * request either; it can still be read back with `spillway_recall`.
       */
      type: 'pinned-rule-evicted';
      conversationId: string;
      rule: PinnedRule;
    }
  | {
      /**
       * An archived original (a tool result capped at storage time) was let go to keep the recall
       * archive within its bounds; its reference no longer resolves.
       */
      type: 'recall-evicted';
      conversationId: string;
      ref: string;
      /** Characters of the original. */
      chars: number;
      reason: RecallEvictionReason;
    }
  | {
      /**
       * The no-model reductions of the history went a level further (previews, stubs or folded
       * tool steps reach later messages): the prompt's prefix changes here, and stays until the
       * next step. Steps are sized to last many turns (see `CompactMessagesResult.reductionLevel`).
       */
      type: 'reduction-step';
      conversationId: string;
      /** The level reached (message numbers, system messages not counted). */
      level: ReductionLevel;
      /** The level of the conversation's previous request; undefined for its first step. */
      previous: ReductionLevel | undefined;
      /**
       * Tokens the no-model reductions take off the request now, less what they took off the
       * previous request: what this step freed.
       */
      tokensFreed: number;
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
