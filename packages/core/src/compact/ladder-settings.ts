import type { Message } from '../message/message';
import type { ResolvedStructureOptions } from '../structure/structure-options';
import type { FormSettings } from './history-forms';
import type { LadderMemo } from './ladder-caches';

/** Settings of `historyLadder`. */
export interface LadderSettings extends Omit<FormSettings, 'callOf'> {
  /** Raw tokens one clearing step (previews, then stubs) frees at least: the prefix changes rarely. */
  readonly clearBatchTokens: number;
  /** Raw tokens one folding step frees at least. */
  readonly foldBatchTokens: number;
  /** Characters of identifiers the lines of one folded turn list together; `false`: none. */
  readonly foldIdentifierChars: number | false;
  /** The structural stages: supersede and cluster where results are reduced, collapse where turns fold. */
  readonly structure: ResolvedStructureOptions;
  /** The reference of history messages `start`..`end` (exclusive), for collapsed exchanges. */
  readonly spanRef: (start: number, end: number) => string | undefined;
  /**
   * What a message's forms are remembered under across requests: its content memo (so a fresh,
   * deserialized copy of an unchanged message costs a lookup), or the message itself.
   */
  readonly keyOf: (message: Message) => object;
  /** The conversation number of each history index (for the cache key of forms that name it). */
  readonly numberOf: (index: number) => number;
  /**
   * Where the forms of this conversation's history are remembered between requests, by the
   * settings they were made with: a growing history costs one key comparison per message it
   * already had.
   */
  readonly memo?: ((settingsKey: string) => LadderMemo) | undefined;
}
