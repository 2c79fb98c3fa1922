import { InvalidConfigError } from '../errors/invalid-config-error';
import { InvalidStoredStateError } from '../errors/invalid-stored-state-error';
import type { CompactionState } from '../store/compaction-state';
import type { CompactionStore } from '../store/compaction-store';
import { isLeasingStore, type LeasingCompactionStore } from '../store/leasing-compaction-store';
import { isVersionedStore } from '../store/versioned-compaction-store';
import type { CompactionEventHandler, StoreErrorReason, StoreOperation } from './compaction-event';

/** How `createCompactor` uses a store's lease (when the store has one). */
export interface LeaseOptions {
  /**
   * How long a lease lasts unless renewed, in milliseconds. The holder renews it every third of
   * this while it summarizes; a holder that dies loses it this long after its last renewal, and
   * another instance takes over.
   * @default 30000
   */
  ttlMs?: number;
  /**
   * How often a request that waits for another instance's compaction checks the store, in
   * milliseconds.
   * @default 100
   */
  pollIntervalMs?: number;
}

/** What a read from the store found. */
export interface LoadedState {
  /** The stored state, when one was read (not yet checked against the messages). */
  state: CompactionState | undefined;
  /**
   * The revision read (0: no state), or `undefined` when the read failed or the value was
   * unreadable: then nothing is written for this request, so nothing is overwritten blindly.
   */
  revision: number | undefined;
}

/** A lease this compactor holds; renewed in the background until released. */
export interface HeldLease {
  token: number;
  /** Whether a renewal found the lease gone (expired and taken over). Writes will be fenced. */
  readonly lost: boolean;
  release(): Promise<void>;
}

/** What waiting for another instance's compaction ended with. */
export type WaitOutcome =
  /** The holder wrote a new state. */
  | { kind: 'state'; loaded: LoadedState }
  /** The holder went away without writing (it failed, or died and its lease expired): ours now. */
  | { kind: 'lease'; lease: HeldLease; loaded: LoadedState }
  /** The time limit passed, the caller aborted, or the store failed: go on without it. */
  | { kind: 'gave-up' };

/** The store as the compactor uses it: every call bounded in time, no call ever throws. */
export interface DistributedFlight {
  /** Whether the store has leases and they are in use. */
  readonly leasing: boolean;
  read(conversationId: string): Promise<LoadedState>;
  /** Writes a new state (compare-and-set when the store has it). Reports, never throws. */
  write(
    conversationId: string,
    state: CompactionState,
    { revision, lease }: { revision: number | undefined; lease?: HeldLease },
  ): Promise<boolean>;
  /** Takes the conversation's lease: held, `'held'` by another instance, or `'unavailable'`. */
  acquire(conversationId: string): Promise<HeldLease | 'held' | 'unavailable'>;
  /**
   * Waits for another instance's compaction to finish, up to `deadline` (ms since epoch): until
   * the state's revision moves past `revision`, or the lease is free (then it is taken).
   */
  waitForHolder(
    conversationId: string,
    { revision, deadline, abortSignal }: { revision: number; deadline: number; abortSignal?: AbortSignal },
  ): Promise<WaitOutcome>;
}

/** Options of {@link createDistributedFlight}. */
export interface DistributedFlightOptions {
  store: CompactionStore;
  onEvent: CompactionEventHandler;
  lease: LeaseOptions | false | undefined;
  /** Longest wait for one store call, in milliseconds. */
  storeTimeoutMs: number;
}

class StoreTimeoutError extends Error {
  constructor(operation: string, ms: number) {
    super(`The compaction store did not answer ${operation} within ${ms} ms`);
    this.name = 'StoreTimeoutError';
  }
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

/** A label for this compactor's leases: random, so each process (and compactor) is its own holder. */
function holderLabel(): string {
  const random =
    typeof globalThis.crypto?.randomUUID === 'function'
      ? globalThis.crypto.randomUUID()
      : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  return `spillway-${random}`;
}

/**
 * The compactor's access to its store, shared by every request of a compactor: bounded calls that
 * report failures as `store-error` events instead of throwing, compare-and-set writes with the
 * lease's fencing token, and the lease itself (take, renew while working, wait for another
 * instance's result). With a simple `get`/`set` store it reads and writes plainly.
 *
 * @throws {InvalidConfigError} for a bad `lease` or `storeTimeoutMs`.
 */
export function createDistributedFlight({
  store,
  onEvent,
  lease,
  storeTimeoutMs,
}: DistributedFlightOptions): DistributedFlight {
  if (typeof storeTimeoutMs !== 'number' || !(storeTimeoutMs > 0)) {
    throw new InvalidConfigError({
      option: 'storeTimeoutMs',
      value: storeTimeoutMs,
      message: 'must be a number of milliseconds above 0',
    });
  }
  const { ttlMs = 30_000, pollIntervalMs = 100 } = lease === false || lease === undefined ? {} : lease;
  for (const [option, value] of [
    ['lease.ttlMs', ttlMs],
    ['lease.pollIntervalMs', pollIntervalMs],
  ] as const) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
      throw new InvalidConfigError({ option, value, message: 'must be a number of milliseconds above 0' });
    }
  }
  const versioned = isVersionedStore(store);
  const leasing = lease !== false && isLeasingStore(store);
  const leaseStore = store as LeasingCompactionStore;
  const holder = holderLabel();

  const report = (
    conversationId: string,
    operation: StoreOperation,
    reason: StoreErrorReason,
    error?: unknown,
  ) => onEvent({ type: 'store-error', conversationId, operation, reason, error });

  /** Runs a store call with the time limit; classifies what went wrong. */
  const call = async <T>(
    conversationId: string,
    operation: StoreOperation,
    work: () => Promise<T>,
  ): Promise<{ ok: true; value: T } | { ok: false }> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const value = await Promise.race([
        Promise.resolve().then(work),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new StoreTimeoutError(operation, storeTimeoutMs)), storeTimeoutMs);
        }),
      ]);
      return { ok: true, value };
    } catch (error) {
      const reason: StoreErrorReason =
        error instanceof StoreTimeoutError
          ? 'timeout'
          : InvalidStoredStateError.isInstance(error)
            ? 'unreadable'
            : 'unavailable';
      report(conversationId, operation, reason, error);
      return { ok: false };
    } finally {
      clearTimeout(timer);
    }
  };

  const flight: DistributedFlight = {
    leasing,

    async read(conversationId) {
      if (versioned) {
        const result = await call(conversationId, 'read', () => store.read(conversationId));
        if (!result.ok) return { state: undefined, revision: undefined };
        return { state: result.value?.state, revision: result.value?.revision ?? 0 };
      }
      const result = await call(conversationId, 'read', () => store.get(conversationId));
      return result.ok ? { state: result.value, revision: 0 } : { state: undefined, revision: undefined };
    },

    async write(conversationId, state, { revision, lease: held }) {
      if (revision === undefined) return false;
      if (!versioned) {
        return (await call(conversationId, 'write', () => store.set(conversationId, state))).ok;
      }
      const result = await call(conversationId, 'write', () =>
        store.compareAndSet(conversationId, state, { expectedRevision: revision, fencingToken: held?.token }),
      );
      if (!result.ok) return false;
      if (!result.value.ok) {
        report(conversationId, 'write', result.value.reason);
        return false;
      }
      return true;
    },

    async acquire(conversationId) {
      if (!leasing) return 'unavailable';
      const result = await call(conversationId, 'lease', () =>
        leaseStore.acquireLease(conversationId, { holder, ttlMs }),
      );
      if (!result.ok) return 'unavailable';
      if (!result.value.acquired) return 'held';
      const { token } = result.value.lease;
      let lost = false;
      let released = false;
      const renewal = setInterval(
        () => {
          if (released || lost) return;
          leaseStore.renewLease(conversationId, { token, ttlMs }).then(
            (held) => {
              if (!held && !released) lost = true;
            },
            // A failed renewal is tried again at the next tick; the lease may expire meanwhile.
            () => {},
          );
        },
        Math.max(1, Math.floor(ttlMs / 3)),
      );
      // Never keep a Node process alive just to renew a lease.
      (renewal as { unref?: () => void }).unref?.();
      return {
        token,
        get lost() {
          return lost;
        },
        async release() {
          if (released) return;
          released = true;
          clearInterval(renewal);
          await call(conversationId, 'lease', () => leaseStore.releaseLease(conversationId, { token }));
        },
      };
    },

    async waitForHolder(conversationId, { revision, deadline, abortSignal }) {
      for (;;) {
        const remaining = deadline - Date.now();
        if (remaining <= 0 || abortSignal?.aborted) return { kind: 'gave-up' };
        await sleep(Math.min(pollIntervalMs, remaining), abortSignal);
        if (abortSignal?.aborted) return { kind: 'gave-up' };
        const loaded = await flight.read(conversationId);
        if (loaded.revision === undefined) return { kind: 'gave-up' };
        if (loaded.revision !== revision) return { kind: 'state', loaded };
        const taken = await flight.acquire(conversationId);
        if (taken === 'unavailable') return { kind: 'gave-up' };
        if (taken === 'held') continue;
        // The lease was free. Read again: the holder may have written and released in between.
        const after = await flight.read(conversationId);
        if (after.revision !== revision) {
          await taken.release();
          return after.revision === undefined ? { kind: 'gave-up' } : { kind: 'state', loaded: after };
        }
        return { kind: 'lease', lease: taken, loaded: after };
      }
    },
  };
  return flight;
}
