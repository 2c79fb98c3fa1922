import { describe, expect, it, vi } from 'vitest';
import { agentConversation, SUMMARY_ONLY } from '../../test/conversation-fixtures';
import { InvalidStoredStateError } from '../errors/invalid-stored-state-error';
import type { Message } from '../message/message';
import type { CompactionState } from '../store/compaction-state';
import type { CompactionStore } from '../store/compaction-store';
import { MemoryCompactionStore } from '../store/memory-compaction-store';
import type { Summarizer } from '../summarize/summarizer';
import type { CompactionEvent } from './compaction-event';
import { createCompactor } from './create-compactor';

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

const summary: Summarizer = ({ messages }) => `Covered ${messages.length} messages about /srv/app.`;
/** One summarizer call per compaction: no identifier audit retry, no chunks. */
const once = { auditIdentifiers: false, summarizerMaxInputTokens: 1e6 };

/** A conversation and a window it fills to ~90% (over the compact threshold). */
function overThreshold() {
  const messages = agentConversation({ turns: 20, toolResultChars: 3000 });
  const contextWindow = Math.floor(createCompactor().estimator.countMessages(messages) / 0.9);
  return { messages, contextWindow };
}

/** A store every call of which fails, or never answers. */
function brokenStore(mode: 'throw' | 'hang'): CompactionStore {
  const fail = () =>
    mode === 'throw'
      ? Promise.reject(new Error('ECONNREFUSED 127.0.0.1:6379'))
      : new Promise<never>(() => {});
  const memory = new MemoryCompactionStore();
  return {
    get: fail,
    set: fail,
    delete: fail,
    read: fail,
    compareAndSet: fail,
    acquireLease: fail,
    renewLease: fail,
    releaseLease: fail,
    // Keep the type honest: these are the memory store's methods' shapes.
  } as unknown as typeof memory;
}

describe('createCompactor with a shared store', () => {
  it('while every store call fails or hangs, summarizes once per process, and says why', async () => {
    for (const mode of ['throw', 'hang'] as const) {
      const events: CompactionEvent[] = [];
      const summarizer = vi.fn(summary);
      const compactor = createCompactor({
        ...SUMMARY_ONLY,
        ...SUMMARY_ONLY,
        store: brokenStore(mode),
        summarizer,
        storeTimeoutMs: 20,
        ...once,
        onEvent: (event) => events.push(event),
      });
      const { messages, contextWindow } = overThreshold();
      const prepared = await compactor.prepare(messages, { conversationId: 'down', contextWindow });
      expect(prepared.tokensAfter).toBeLessThan(contextWindow);
      // The store is down: the process summarizes by itself, and keeps the summary for itself.
      expect(prepared.stateChanged).toBe(true);
      expect(summarizer).toHaveBeenCalledTimes(1);
      const next = [...messages, { role: 'user', content: 'and then?' } as Message];
      const applied = await compactor.prepare(next, { conversationId: 'down', contextWindow });
      expect(applied.actions).toContain('apply-summary');
      expect(applied.state).toEqual(prepared.state);
      expect(summarizer).toHaveBeenCalledTimes(1);
      await compactor.afterResponse(next, { conversationId: 'down', contextWindow });
      expect(await compactor.compact(next, { conversationId: 'down', contextWindow })).toBeDefined();
      const errors = events.filter((event) => event.type === 'store-error');
      expect(errors.length).toBeGreaterThan(0);
      expect(errors[0]).toMatchObject({
        operation: 'read',
        reason: mode === 'throw' ? 'unavailable' : 'timeout',
      });
      expect(errors.every((error) => error.reason === (mode === 'throw' ? 'unavailable' : 'timeout'))).toBe(
        true,
      );
      // One summary for the conversation in this process: the manual compaction found it covered.
      expect(events.filter((event) => event.type === 'compaction-start')).toHaveLength(1);
    }
  });

  it('goes back to the shared store and its lease as soon as the store answers again', async () => {
    const shared = new MemoryCompactionStore();
    let down = true;
    const leases = vi.fn();
    // The shared store, reachable or not: every call fails while `down`.
    const flaky = new Proxy(shared, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (down) return Promise.reject(new Error('ECONNREFUSED 127.0.0.1:6379'));
          if (property === 'acquireLease') leases(...args);
          return value.apply(target, args);
        };
      },
    });
    const summarizer = vi.fn(summary);
    const events: CompactionEvent[] = [];
    const compactor = createCompactor({
      ...SUMMARY_ONLY,
      store: flaky,
      summarizer,
      ...once,
      onEvent: (event) => events.push(event),
    });
    const { messages, contextWindow } = overThreshold();
    const during = await compactor.prepare(messages, { conversationId: 'flaky', contextWindow });
    expect(during.stateChanged).toBe(true);
    expect(await shared.read('flaky')).toBeUndefined();
    expect(events.some((event) => event.type === 'store-error')).toBe(true);

    down = false;
    events.length = 0;
    const after = await compactor.prepare(messages, { conversationId: 'flaky', contextWindow });
    // The shared store had no summary: the crossing is summarized again, under the shared lease.
    expect(after.stateChanged).toBe(true);
    expect(summarizer).toHaveBeenCalledTimes(2);
    expect(leases).toHaveBeenCalledTimes(1);
    expect((await shared.read('flaky'))?.state).toEqual(after.state);
    expect(events.filter((event) => event.type === 'store-error')).toEqual([]);
    // Another instance sees it.
    const other = createCompactor({ ...SUMMARY_ONLY, store: shared, summarizer, ...once });
    const next = [...messages, { role: 'user', content: 'next' } as Message];
    const applied = await other.prepare(next, { conversationId: 'flaky', contextWindow });
    expect(applied.actions).toContain('apply-summary');
    expect(summarizer).toHaveBeenCalledTimes(2);
  });

  it('a store that answers the read but fails the lease is not down: no summary without the shared lease', async () => {
    const shared = new MemoryCompactionStore();
    const failing = new Proxy(shared, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) =>
          property === 'acquireLease'
            ? Promise.reject(new Error('lease script failed'))
            : value.apply(target, args);
      },
    });
    const summarizer = vi.fn(summary);
    const events: CompactionEvent[] = [];
    const compactor = createCompactor({
      ...SUMMARY_ONLY,
      store: failing,
      summarizer,
      ...once,
      onEvent: (event) => events.push(event),
    });
    const { messages, contextWindow } = overThreshold();
    const result = await compactor.prepare(messages, { conversationId: 'lease-down', contextWindow });
    expect(result.stateChanged).toBe(false);
    expect(result.tokensAfter).toBeLessThan(contextWindow);
    expect(summarizer).not.toHaveBeenCalled();
    expect(await shared.read('lease-down')).toBeUndefined();
    expect(events.find((event) => event.type === 'store-error')).toMatchObject({
      operation: 'lease',
      reason: 'unavailable',
    });
  });

  it('a store that goes down mid-summary keeps the summary in the process for the outage', async () => {
    const shared = new MemoryCompactionStore();
    let down = false;
    const gate = deferred();
    const summarizer = vi.fn<Summarizer>(async (input) => {
      await gate.promise;
      return summary(input) as string;
    });
    const flaky = new Proxy(shared, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) =>
          down ? Promise.reject(new Error('connection lost')) : value.apply(target, args);
      },
    });
    const compactor = createCompactor({ ...SUMMARY_ONLY, store: flaky, summarizer, ...once });
    const { messages, contextWindow } = overThreshold();
    const running = compactor.prepare(messages, { conversationId: 'mid', contextWindow });
    await vi.waitFor(() => expect(summarizer).toHaveBeenCalled(), { timeout: 20_000 });
    down = true;
    gate.resolve();
    const made = await running;
    expect(made.stateChanged).toBe(true);
    expect(await shared.read('mid')).toBeUndefined();
    const next = [...messages, { role: 'user', content: 'and then?' } as Message];
    const applied = await compactor.prepare(next, { conversationId: 'mid', contextWindow });
    expect(applied.actions).toContain('apply-summary');
    expect(summarizer).toHaveBeenCalledTimes(1);
  });

  it('treats an unreadable stored value as no state and never overwrites it', async () => {
    const inner = new MemoryCompactionStore();
    const unreadable = new InvalidStoredStateError({ reason: 'foreign', message: 'not ours' });
    const writes = vi.fn();
    const store: CompactionStore = {
      get: () => Promise.reject(unreadable),
      set: async (...args) => writes(...args),
      delete: (id) => inner.delete(id),
    };
    const events: CompactionEvent[] = [];
    const compactor = createCompactor({
      ...SUMMARY_ONLY,
      ...SUMMARY_ONLY,
      store,
      summarizer: summary,
      onEvent: (event) => events.push(event),
    });
    const { messages, contextWindow } = overThreshold();
    const prepared = await compactor.prepare(messages, { conversationId: 'garbage', contextWindow });
    expect(prepared.actions).not.toContain('apply-summary');
    expect(prepared.tokensAfter).toBeLessThan(contextWindow);
    await compactor.afterResponse(messages, { conversationId: 'garbage', contextWindow });
    await compactor.compact(messages, { conversationId: 'garbage', contextWindow });
    expect(writes).not.toHaveBeenCalled();
    expect(events.find((event) => event.type === 'store-error')).toMatchObject({
      operation: 'read',
      reason: 'unreadable',
    });
  });

  it('keeps working with a simple get/set store', async () => {
    const map = new Map<string, CompactionState>();
    const store: CompactionStore = {
      get: async (id) => map.get(id),
      set: async (id, state) => {
        map.set(id, state);
      },
      delete: async (id) => {
        map.delete(id);
      },
    };
    const summarizer = vi.fn(summary);
    const compactor = createCompactor({ ...SUMMARY_ONLY, store, summarizer, ...once });
    const { messages, contextWindow } = overThreshold();
    const first = await compactor.prepare(messages, { conversationId: 'simple', contextWindow });
    expect(first.stateChanged).toBe(true);
    expect(map.get('simple')).toEqual(first.state);
    const next = [...messages, { role: 'user', content: 'and then?' } as Message];
    const second = await compactor.prepare(next, { conversationId: 'simple', contextWindow });
    expect(second.actions).toContain('apply-summary');
    expect(summarizer).toHaveBeenCalledTimes(1);
  });

  it('one crossing, many compactors on one store: one compaction, the same summary everywhere', async () => {
    const store = new MemoryCompactionStore();
    const gate = deferred();
    const summarizer = vi.fn<Summarizer>(async (input) => {
      await gate.promise;
      return summary(input) as string;
    });
    const { messages, contextWindow } = overThreshold();
    const compactors = Array.from({ length: 3 }, () =>
      createCompactor({ ...SUMMARY_ONLY, store, summarizer, lease: { pollIntervalMs: 5 }, ...once }),
    );
    const requests = compactors.flatMap((compactor) =>
      Array.from({ length: 10 }, () =>
        compactor.prepare(messages, { conversationId: 'many', contextWindow }),
      ),
    );
    await vi.waitFor(() => expect(summarizer).toHaveBeenCalled(), { timeout: 20_000 });
    gate.resolve();
    const results = await Promise.all(requests);
    expect(summarizer).toHaveBeenCalledTimes(1);
    expect(results.filter((result) => result.stateChanged)).toHaveLength(1);
    const stored = await store.read('many');
    expect(stored?.revision).toBe(1);
    for (const result of results) {
      expect(result.state).toEqual(stored?.state);
      expect(result.messages[0]).toEqual(results[0]!.messages[0]);
    }
  });

  it('a background compaction elsewhere is not waited for, and not repeated', async () => {
    const store = new MemoryCompactionStore();
    const gate = deferred();
    const summarizer = vi.fn<Summarizer>(async (input) => {
      await gate.promise;
      return summary(input) as string;
    });
    const messages = agentConversation({ turns: 20, toolResultChars: 3000 });
    const contextWindow = Math.floor(createCompactor().estimator.countMessages(messages) / 0.82);
    const a = createCompactor({ ...SUMMARY_ONLY, store, summarizer, ...once });
    const b = createCompactor({ ...SUMMARY_ONLY, store, summarizer, ...once });
    const work = a.afterResponse(messages, { conversationId: 'bg', contextWindow });
    await vi.waitFor(() => expect(summarizer).toHaveBeenCalledTimes(1), { timeout: 20_000 });
    // The other instance's background attempt finds the lease taken and returns at once.
    await b.afterResponse(messages, { conversationId: 'bg', contextWindow });
    expect(b.isCompacting('bg')).toBe(false);
    gate.resolve();
    await work;
    expect(summarizer).toHaveBeenCalledTimes(1);
    const next = [...messages, { role: 'user', content: 'next' } as Message];
    const applied = await b.prepare(next, { conversationId: 'bg', contextWindow });
    expect(applied.actions).toContain('apply-summary');
  });

  it("a holder whose lease expired cannot overwrite the new holder's state", async () => {
    const store = new MemoryCompactionStore();
    // The stalled holder cannot renew (as if paused or partitioned), so its lease runs out.
    const stalled = {
      get: store.get.bind(store),
      set: store.set.bind(store),
      delete: store.delete.bind(store),
      read: store.read.bind(store),
      compareAndSet: store.compareAndSet.bind(store),
      acquireLease: store.acquireLease.bind(store),
      releaseLease: store.releaseLease.bind(store),
      renewLease: async () => false,
    };
    const stall = deferred();
    const slow = vi.fn<Summarizer>(async (input) => {
      await stall.promise;
      return `stale: ${summary(input)}`;
    });
    const fast = vi.fn<Summarizer>((input) => `fresh: ${summary(input)}`);
    const events: CompactionEvent[] = [];
    const { messages, contextWindow } = overThreshold();
    const old = createCompactor({
      ...SUMMARY_ONLY,
      ...SUMMARY_ONLY,
      store: stalled,
      summarizer: slow,
      lease: { ttlMs: 30 },
      ...once,
      onEvent: (event) => events.push(event),
    });
    const taker = createCompactor({
      ...SUMMARY_ONLY,
      ...SUMMARY_ONLY,
      store,
      summarizer: fast,
      lease: { ttlMs: 30_000, pollIntervalMs: 5 },
    });
    const late = old.prepare(messages, { conversationId: 'fence', contextWindow });
    await vi.waitFor(() => expect(slow).toHaveBeenCalled(), { timeout: 20_000 });
    // The taker waits for the holder, sees its lease expire, takes over and stores its summary.
    const fresh = await taker.prepare(messages, { conversationId: 'fence', contextWindow });
    expect(fresh.stateChanged).toBe(true);
    stall.resolve();
    const stale = await late;
    expect(stale.stateChanged).toBe(true); // it made one, and used it for its own request
    expect((await store.get('fence'))?.summaries[0]).toMatch(/^fresh:/);
    expect(events.find((event) => event.type === 'store-error')).toMatchObject({
      operation: 'write',
      reason: 'fenced',
    });
  });

  it('a foreground request waits for the holder only up to the limit, then goes on', async () => {
    const store = new MemoryCompactionStore();
    const never = deferred();
    const stuck = vi.fn<Summarizer>(async () => {
      await never.promise;
      return 'never';
    });
    const { messages, contextWindow } = overThreshold();
    const holder = createCompactor({ ...SUMMARY_ONLY, store, summarizer: stuck, ...once });
    void holder.prepare(messages, { conversationId: 'slow', contextWindow });
    await vi.waitFor(() => expect(stuck).toHaveBeenCalled(), { timeout: 20_000 });
    const waiter = createCompactor({
      ...SUMMARY_ONLY,
      ...SUMMARY_ONLY,
      store,
      summarizer: summary,
      lease: { pollIntervalMs: 5 },
      summaryTimeouts: { foreground: 50 },
    });
    const result = await waiter.prepare(messages, { conversationId: 'slow', contextWindow });
    expect(result.stateChanged).toBe(false);
    expect(result.tokensAfter).toBeLessThan(contextWindow);
    // The caller's own abort ends the wait at once, with the caller's reason.
    const controller = new AbortController();
    const reason = new Error('user left');
    const aborted = waiter.prepare(messages, {
      conversationId: 'slow',
      contextWindow,
      abortSignal: controller.signal,
    });
    controller.abort(reason);
    await expect(aborted).rejects.toBe(reason);
    never.resolve();
  });

  it('checks its options', () => {
    expect(() => createCompactor({ ...SUMMARY_ONLY, storeTimeoutMs: 0 })).toThrow(/storeTimeoutMs/);
    expect(() => createCompactor({ lease: { ttlMs: -1 } })).toThrow(/lease.ttlMs/);
    expect(() => createCompactor({ lease: { pollIntervalMs: Number.NaN } })).toThrow(/lease.pollIntervalMs/);
  });
});
