import { LRUCache } from 'lru-cache';
import { InvalidConfigError } from '../errors/invalid-config-error';
import { InvalidStoredStateError } from '../errors/invalid-stored-state-error';
import type { CompactionState } from '../store/compaction-state';
import type { CompactionStore } from '../store/compaction-store';
import { isLeasingStore, type LeasingCompactionStore } from '../store/leasing-compaction-store';
import { MemoryCompactionStore } from '../store/memory-compaction-store';
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
   * The revision read (0: no state), or `undefined` when the value was unreadable: then nothing is
   * written for this request, so nothing is overwritten blindly. Negative while the store is down
   * or too slow: the state was read from this process's own fallback (-1: none kept there), and a
   * write with it goes there too.
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

/** The methods a store call may use: the memory store's own ones answer within the same tick. */
const MEMORY_STORE_METHODS = [
  'get',
  'set',
  'read',
  'compareAndSet',
  'acquireLease',
  'renewLease',
  'releaseLease',
] as const satisfies readonly (keyof MemoryCompactionStore)[];

/** A failure the compactor works around by itself: the store is down, or does not answer in time. */
const isOutage = (reason: StoreErrorReason) => reason === 'unavailable' || reason === 'timeout';

/** The revision a state kept in the process's fallback goes by (always negative; see `LoadedState`). */
const localRevision = (revision: number) => -1 - revision;
const isLocalRevision = (revision: number) => revision < 0;

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
 * While the store is down or too slow (a read throws or times out), the compactor goes on as a
 * process alone for that conversation: its state is read from and written to an in-process
 * fallback, and its lease is taken there (single-flight per process), so it is still summarized,
 * once per process; a write that fails the same way keeps its state there too. Each failed call is
 * still reported. The first read the store answers brings the shared state and lease back; what the
 * fallback kept for that conversation is dropped (the shared state is the truth, and the next
 * threshold crossing is summarized under the shared lease). Nothing made under a fallback lease is
 * ever written to the store.
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
  // The built-in in-process store answers within the same tick: no timer is armed for it (a timer
  // per call was about a tenth of a fresh request's cost at 500 messages). A subclass, a proxy or an
  // instance whose methods were replaced may wait: only the class's own methods are trusted.
  const immediate =
    store.constructor === MemoryCompactionStore &&
    MEMORY_STORE_METHODS.every((method) => store[method] === MemoryCompactionStore.prototype[method]);
  const leasing = lease !== false && isLeasingStore(store);
  const leaseStore = store as LeasingCompactionStore;
  const holder = holderLabel();

  const report = (
    conversationId: string,
    operation: StoreOperation,
    reason: StoreErrorReason,
    error?: unknown,
  ) => onEvent({ type: 'store-error', conversationId, operation, reason, error });

  /** Runs a store call with the time limit; classifies and reports what went wrong. */
  const call = async <T>(
    conversationId: string,
    operation: StoreOperation,
    work: () => Promise<T>,
  ): Promise<{ ok: true; value: T } | { ok: false; reason: StoreErrorReason }> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      if (immediate) return { ok: true, value: await work() };
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
      return { ok: false, reason };
    } finally {
      clearTimeout(timer);
    }
  };

  /** Where states and leases live while the store is down: this process only. */
  const fallback = new MemoryCompactionStore();
  /** Conversations whose last read found the store down: their lease is taken in the fallback. */
  const outages = new LRUCache<string, true>({ max: 1000 });
  /** Leases taken in the fallback (a write with one never goes to the store). */
  const fallbackLeases = new WeakSet<HeldLease>();

  const readFallback = async (conversationId: string): Promise<LoadedState> => {
    const kept = await fallback.read(conversationId);
    return { state: kept?.state, revision: localRevision(kept?.revision ?? 0) };
  };

  const acquireFallback = async (conversationId: string): Promise<HeldLease | 'held'> => {
    const taken = await fallback.acquireLease(conversationId, { holder, ttlMs });
    if (!taken.acquired) return 'held';
    const { token } = taken.lease;
    const lease: HeldLease = {
      token,
      lost: false,
      release: () => fallback.releaseLease(conversationId, { token }),
    };
    fallbackLeases.add(lease);
    return lease;
  };

  const flight: DistributedFlight = {
    leasing,

    async read(conversationId) {
      const result = versioned
        ? await call(conversationId, 'read', () => store.read(conversationId))
        : await call(conversationId, 'read', async () => {
            const state = await store.get(conversationId);
            return state === undefined ? undefined : { state, revision: 0 };
          });
      if (result.ok) {
        // The store answers: its state and lease are the truth again.
        outages.delete(conversationId);
        fallback.delete(conversationId);
        return { state: result.value?.state, revision: result.value?.revision ?? 0 };
      }
      if (!isOutage(result.reason)) return { state: undefined, revision: undefined };
      outages.set(conversationId, true);
      return readFallback(conversationId);
    },

    async write(conversationId, state, { revision, lease: held }) {
      if (revision === undefined) return false;
      if (isLocalRevision(revision)) {
        // The process's own memory, not the store: a refusal here is not a store error (the
        // store answered meanwhile and dropped what the process kept).
        const written = await fallback.compareAndSet(conversationId, state, {
          expectedRevision: localRevision(revision),
        });
        return written.ok;
      }
      // A lease taken in the fallback never backs a write to the store (the store came back in
      // between): the summary serves this request only.
      if (held !== undefined && fallbackLeases.has(held)) return false;
      const result = versioned
        ? await call(conversationId, 'write', () =>
            store.compareAndSet(conversationId, state, {
              expectedRevision: revision,
              fencingToken: held?.token,
            }),
          )
        : await call(conversationId, 'write', async () => {
            await store.set(conversationId, state);
            return { ok: true } as const;
          });
      if (!result.ok) {
        // Keep the summary for this process's next requests while the store is down.
        if (isOutage(result.reason)) await fallback.set(conversationId, state);
        return false;
      }
      if (!result.value.ok) {
        report(conversationId, 'write', result.value.reason);
        return false;
      }
      return true;
    },

    async acquire(conversationId) {
      if (!leasing) return 'unavailable';
      // Read from the fallback: the lease goes with it. (A store that answered the read but fails
      // the lease is not taken for down: the request goes on without summarizing.)
      if (outages.has(conversationId)) return acquireFallback(conversationId);
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
        // The store went down while another instance held the lease: go on as a process alone.
        const outage = isLocalRevision(loaded.revision) && !isLocalRevision(revision);
        if (loaded.revision !== revision && !outage) return { kind: 'state', loaded };
        const taken = outage ? await acquireFallback(conversationId) : await flight.acquire(conversationId);
        if (taken === 'unavailable') return { kind: 'gave-up' };
        if (taken === 'held') continue;
        if (outage) return { kind: 'lease', lease: taken, loaded };
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
