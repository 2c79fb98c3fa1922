import type { VersionedCompactionStore } from './versioned-compaction-store';

/** A lease on one conversation, held by one compactor until it is released or expires. */
export interface CompactionLease {
  /**
   * The fencing token: every grant for the conversation gets a larger one. Writes carry it
   * (`compareAndSet`'s `fencingToken`) so a holder whose lease expired cannot overwrite the work
   * of the one that took over.
   */
  readonly token: number;
  /** Who holds it (an opaque label chosen by the holder). */
  readonly holder: string;
  /** When it expires unless renewed (ms since epoch, by the store's clock). */
  readonly expiresAt: number;
}

/** Options of {@link LeasingCompactionStore.acquireLease}. */
export interface AcquireLeaseOptions {
  /** A label for the holder, returned to others who find the lease taken. */
  holder: string;
  /** How long the lease lasts unless renewed, in milliseconds. */
  ttlMs: number;
}

/** What {@link LeasingCompactionStore.acquireLease} answers. */
export type AcquireLeaseResult =
  | { readonly acquired: true; readonly lease: CompactionLease }
  | {
      readonly acquired: false /** The lease in force, when the store can tell. */;
      readonly current?: CompactionLease;
    };

/**
 * A {@link VersionedCompactionStore} with a per-conversation lease: at most one holder at a time,
 * expiry (a holder that dies loses it), and a fencing token that `compareAndSet` checks.
 * The lease and the state are independent: taking or losing a lease never changes the state.
 */
export interface LeasingCompactionStore extends VersionedCompactionStore {
  /** Takes the lease if no unexpired lease is held. Atomic across every process sharing the store. */
  acquireLease(conversationId: string, options: AcquireLeaseOptions): Promise<AcquireLeaseResult>;
  /** Extends the lease by `ttlMs` from now if it is still held with `token`; `false` when it is lost. */
  renewLease(conversationId: string, options: { token: number; ttlMs: number }): Promise<boolean>;
  /** Gives the lease up if it is still held with `token`; otherwise does nothing. */
  releaseLease(conversationId: string, options: { token: number }): Promise<void>;
}

/** Whether `store` implements {@link LeasingCompactionStore}. */
export function isLeasingStore(store: object): store is LeasingCompactionStore {
  const candidate = store as Partial<LeasingCompactionStore>;
  return (
    typeof candidate.read === 'function' &&
    typeof candidate.compareAndSet === 'function' &&
    typeof candidate.acquireLease === 'function' &&
    typeof candidate.renewLease === 'function' &&
    typeof candidate.releaseLease === 'function'
  );
}
