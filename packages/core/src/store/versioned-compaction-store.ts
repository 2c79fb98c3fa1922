import type { CompactionState } from './compaction-state';
import type { CompactionStore } from './compaction-store';

/** A stored state with its revision. */
export interface VersionedCompactionState {
  readonly state: CompactionState;
  /**
   * Counts the writes to this conversation's state: 1 after the first, then one more for each
   * write (`set` included). 0 stands for "no state" in {@link CompareAndSetOptions.expectedRevision}.
   */
  readonly revision: number;
}

/** Options of {@link VersionedCompactionStore.compareAndSet}. */
export interface CompareAndSetOptions {
  /** The revision the writer read (`0` when it read no state). The write happens only if it is still current. */
  expectedRevision: number;
  /**
   * The fencing token of the writer's lease. When given, the write happens only if no lease was
   * granted for the conversation after this one (a holder whose lease expired cannot write).
   */
  fencingToken?: number;
}

/** What {@link VersionedCompactionStore.compareAndSet} answers. */
export type CompareAndSetResult =
  | { readonly ok: true; readonly revision: number }
  | {
      readonly ok: false;
      /**
       * `conflict`: the state is no longer at `expectedRevision` (someone wrote first);
       * `fenced`: a newer lease was granted (or the token was never issued);
       * `unreadable`: the key holds a value that is not a compaction state this version can read
       * (corrupt, foreign, or from a newer schema). It is left as it is.
       */
      readonly reason: 'conflict' | 'fenced' | 'unreadable';
    };

/**
 * A {@link CompactionStore} with versioned compare-and-set writes. `read` and `compareAndSet` must
 * be atomic with respect to each other and to `set`/`delete` across every process that shares the
 * store: of several writers that read the same revision, exactly one succeeds.
 */
export interface VersionedCompactionStore extends CompactionStore {
  /** The state and its revision; `undefined` when there is none. Throws on an unreadable value. */
  read(conversationId: string): Promise<VersionedCompactionState | undefined>;
  /** Writes `state` if the stored revision is still `expectedRevision` (and the fence allows it). */
  compareAndSet(
    conversationId: string,
    state: CompactionState,
    options: CompareAndSetOptions,
  ): Promise<CompareAndSetResult>;
}

/** Whether `store` implements {@link VersionedCompactionStore}. */
export function isVersionedStore(store: CompactionStore): store is VersionedCompactionStore {
  const candidate = store as Partial<VersionedCompactionStore>;
  return typeof candidate.read === 'function' && typeof candidate.compareAndSet === 'function';
}
