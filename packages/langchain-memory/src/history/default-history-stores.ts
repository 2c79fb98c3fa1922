import { MemoryCompactionStore } from '@spillway/core';

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
