import { MemoryCompactionStore, MemoryRecallArchive, type RecallEviction } from '@spillway/core';

/**
 * The store histories share when none is given: `getMessageHistory` commonly makes a new history
 * object per call, and the summary must outlive it.
 */
let sharedStore: MemoryCompactionStore | undefined;

/** The process-wide compaction store of histories given none. */
export function defaultCompactionStore(): MemoryCompactionStore {
  sharedStore ??= new MemoryCompactionStore();
  return sharedStore;
}

/** Who hears of an original the shared archive lets go: each live history, for its conversations. */
type EvictionListener = (eviction: RecallEviction) => void;

let sharedArchive: MemoryRecallArchive | undefined;
const listeners = new Set<WeakRef<EvictionListener>>();

/**
 * The read-back archive histories share when none is given, for the same reason as the store: a
 * new history object over the same stored history must read back the originals the last one
 * archived. Bounded (64 MiB, 24 hours); an original let go raises `recall-evicted` on every live
 * history that listens (each keeps only its own conversations' events).
 */
export function defaultRecallArchive(): MemoryRecallArchive {
  sharedArchive ??= new MemoryRecallArchive({
    onEvict: (eviction) => {
      for (const reference of listeners) {
        const listener = reference.deref();
        if (listener === undefined) listeners.delete(reference);
        else listener(eviction);
      }
    },
  });
  return sharedArchive;
}

/**
 * Adds a listener for the shared archive's evictions, held weakly: it goes when the history that
 * holds it is collected.
 */
export function onSharedArchiveEviction(listener: EvictionListener): void {
  listeners.add(new WeakRef(listener));
}
