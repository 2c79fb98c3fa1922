/**
 * The multi-process scenarios every shared store must pass, run by each backend's e2e test against
 * its real server: 3 Node processes, each a real compactor, one conversation.
 */
import { expect } from 'vitest';
import {
  type CompactionStore,
  compactMessages,
  createCompactor,
  isVersionedStore,
  type VersionedCompactionStore,
} from '../../src/index';
import { agentConversation, SUMMARY_ONLY } from '../conversation-fixtures';
import { createRunLog, type Instance, type PrepareReply, startInstance } from './multi-instance';

/** What a backend gives the scenarios. */
export interface Backend {
  /** Absolute path of the module the workers import (`createStore(): Promise<{ store, close }>`). */
  storeModule: string;
  /** Env for the workers: how to reach the shared server. */
  env: Record<string, string>;
  /** A store on the same server, for the test itself to read. */
  store: CompactionStore;
}

/** A server the test may stop and start again. */
export interface StoppableBackend extends Backend {
  stop(): Promise<void>;
  restart(): Promise<void>;
}

const TURNS = 20;

/** The window the 20-turn conversation fills to 90%: one crossing of the compact threshold (85%). */
export function scenarioWindow(): number {
  return Math.floor(
    createCompactor().estimator.countMessages(agentConversation({ turns: TURNS, toolResultChars: 3000 })) /
      0.9,
  );
}

function versioned(store: CompactionStore): VersionedCompactionStore {
  if (!isVersionedStore(store)) throw new Error('the backend store must be versioned');
  return store;
}

/** The smallest number of turns at which, with `state` applied, a request summarizes again. */
async function nextCrossing(
  store: VersionedCompactionStore,
  id: string,
  contextWindow: number,
): Promise<number> {
  const stored = await store.read(id);
  for (let turns = TURNS + 1; turns < TURNS + 80; turns++) {
    const result = await compactMessages(agentConversation({ turns, toolResultChars: 3000 }), {
      ...SUMMARY_ONLY,
      state: stored?.state,
      contextWindow,
      auditIdentifiers: false,
      summarizer: () => {
        throw new Error('probe');
      },
    });
    if (result.actions.includes('summarize-failed')) return turns;
  }
  throw new Error('no second crossing found');
}

function expectAllSucceeded(replies: PrepareReply[], count: number) {
  for (const reply of replies) {
    expect(reply.failures).toEqual([]);
    expect(reply.ok).toBe(count);
    expect(reply.overWindow).toBe(0);
  }
}

async function withInstances<T>(
  count: number,
  env: Record<string, string>,
  work: (instances: Instance[]) => Promise<T>,
): Promise<T> {
  const instances = await Promise.all(Array.from({ length: count }, () => startInstance(env)));
  try {
    return await work(instances);
  } finally {
    for (const instance of instances) {
      if (instance.process.signalCode === 'SIGSTOP') instance.process.kill('SIGCONT');
    }
    await Promise.all(instances.map((instance) => instance.exit().catch(() => {})));
  }
}

/**
 * 3 processes × 50 concurrent requests over the threshold on one conversation, twice (two
 * crossings): exactly one summarizer run per crossing, every request ends with the same state,
 * every instance applies it afterwards, and the store holds each crossing's state (no lost update).
 */
export async function oneRunPerCrossing(backend: Backend): Promise<void> {
  const store = versioned(backend.store);
  const conversationId = `crossing-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const contextWindow = scenarioWindow();
  const log = createRunLog();
  await withInstances(
    3,
    {
      ...backend.env,
      STORE_MODULE: backend.storeModule,
      CONVERSATION_ID: conversationId,
      CONTEXT_WINDOW: String(contextWindow),
      RUN_LOG: log.path,
      SUMMARY_DELAY_MS: '300',
    },
    async (instances) => {
      // Crossing 1.
      const first = await Promise.all(
        instances.map((instance) => instance.prepare({ turns: TURNS, count: 50 })),
      );
      expectAllSucceeded(first, 50);
      expect(log.read().filter((line) => line.phase === 'start')).toHaveLength(1);
      expect(first.reduce((sum, reply) => sum + reply.stateChanged, 0)).toBe(1);
      const states = new Set(first.flatMap((reply) => reply.states));
      expect(states.size).toBe(1);
      const stored = await store.read(conversationId);
      expect(stored?.revision).toBe(1);
      expect(JSON.stringify(stored?.state)).toBe([...states][0]);

      // Afterwards every instance applies that summary.
      const after = await Promise.all(
        instances.map((instance) => instance.prepare({ turns: TURNS, extra: 1, count: 5 })),
      );
      expectAllSucceeded(after, 5);
      for (const reply of after) {
        expect(reply.applied).toBe(5);
        expect(reply.states).toEqual([JSON.stringify(stored?.state)]);
      }

      // Crossing 2: the conversation grows until the summary no longer keeps it under the threshold.
      const turns = await nextCrossing(store, conversationId, contextWindow);
      const second = await Promise.all(instances.map((instance) => instance.prepare({ turns, count: 50 })));
      expectAllSucceeded(second, 50);
      expect(log.read().filter((line) => line.phase === 'start')).toHaveLength(2);
      expect(second.reduce((sum, reply) => sum + reply.stateChanged, 0)).toBe(1);
      const final = await store.read(conversationId);
      expect(final?.revision).toBe(2);
      expect(final?.state.compactionCount).toBe(2);
      expect(new Set(second.flatMap((reply) => reply.states))).toEqual(
        new Set([JSON.stringify(final?.state)]),
      );
    },
  );
  await store.delete(conversationId);
}

/** The lease holder is killed mid-summary: another instance completes it once the lease expires. */
export async function holderKilledMidSummary(backend: Backend): Promise<void> {
  const store = versioned(backend.store);
  const conversationId = `killed-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const log = createRunLog();
  const env = {
    ...backend.env,
    STORE_MODULE: backend.storeModule,
    CONVERSATION_ID: conversationId,
    CONTEXT_WINDOW: String(scenarioWindow()),
    RUN_LOG: log.path,
    LEASE_TTL_MS: '1500',
  };
  const holder = await startInstance({ ...env, SUMMARY_DELAY_MS: '600000' });
  await withInstances(2, { ...env, SUMMARY_DELAY_MS: '200' }, async (others) => {
    const doomed = holder.prepare({ turns: TURNS, count: 5 }).catch(() => undefined);
    await expect.poll(() => log.read().length, { timeout: 30_000, interval: 20 }).toBe(1);
    holder.process.kill('SIGKILL');
    await doomed;
    const replies = await Promise.all(
      others.map((instance) => instance.prepare({ turns: TURNS, count: 10 })),
    );
    expectAllSucceeded(replies, 10);
    const runs = log.read();
    expect(runs.filter((line) => line.phase === 'start').map((line) => line.pid)).toHaveLength(2);
    const completed = runs.filter((line) => line.phase === 'end');
    expect(completed).toHaveLength(1);
    expect(completed[0]!.pid).not.toBe(holder.pid);
    const stored = await store.read(conversationId);
    expect(stored?.state.summaries[0]).toContain(`Summary by ${completed[0]!.pid}`);
    expect(new Set(replies.flatMap((reply) => reply.states))).toEqual(
      new Set([JSON.stringify(stored?.state)]),
    );
  });
  await holder.exit().catch(() => {});
  await store.delete(conversationId);
}

/**
 * The holder is paused (SIGSTOP) past its lease; another instance takes over and stores its summary;
 * the paused holder, resumed, finishes its summary and its late write is fenced.
 */
export async function staleHolderIsFenced(backend: Backend): Promise<void> {
  const store = versioned(backend.store);
  const conversationId = `stale-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const log = createRunLog();
  const env = {
    ...backend.env,
    STORE_MODULE: backend.storeModule,
    CONVERSATION_ID: conversationId,
    CONTEXT_WINDOW: String(scenarioWindow()),
    RUN_LOG: log.path,
    LEASE_TTL_MS: '1000',
  };
  await withInstances(1, { ...env, SUMMARY_DELAY_MS: '1500' }, async ([stale]) => {
    await withInstances(1, { ...env, SUMMARY_DELAY_MS: '100' }, async ([taker]) => {
      const late = stale!.prepare({ turns: TURNS, count: 1 });
      await expect.poll(() => log.read().length, { timeout: 30_000, interval: 10 }).toBe(1);
      stale!.process.kill('SIGSTOP');
      const taken = await taker!.prepare({ turns: TURNS, count: 3 });
      expectAllSucceeded([taken], 3);
      expect(taken.stateChanged).toBe(1);
      const winner = await store.read(conversationId);
      expect(winner?.state.summaries[0]).toContain(`Summary by ${taker!.pid}`);
      stale!.process.kill('SIGCONT');
      const lateReply = await late;
      expectAllSucceeded([lateReply], 1);
      // It made a summary (and used it for its own request), but could not store it.
      expect(lateReply.stateChanged).toBe(1);
      expect(lateReply.storeErrors).toContain('fenced');
      const after = await store.read(conversationId);
      expect(after).toEqual(winner);
    });
  });
  await store.delete(conversationId);
}

/** The server stops mid-run and comes back: every request of every instance still succeeds. */
export async function serverStopsMidRun(backend: StoppableBackend): Promise<void> {
  const conversationId = `outage-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const log = createRunLog();
  const env = {
    ...backend.env,
    STORE_MODULE: backend.storeModule,
    CONVERSATION_ID: conversationId,
    CONTEXT_WINDOW: String(scenarioWindow()),
    RUN_LOG: log.path,
    SUMMARY_DELAY_MS: '50',
    STORE_TIMEOUT_MS: '500',
  };
  await withInstances(3, env, async (instances) => {
    const errors: string[] = [];
    let runsBefore = 0;
    for (let step = 0; step < 9; step++) {
      if (step === 3) {
        runsBefore = log.read().filter((line) => line.phase === 'start').length;
        await backend.stop();
      }
      if (step === 6) await backend.restart();
      const replies = await Promise.all(
        instances.map((instance) => instance.prepare({ turns: TURNS + step, count: 10 })),
      );
      expectAllSucceeded(replies, 10);
      errors.push(...replies.flatMap((reply) => reply.storeErrors));
      // While the server is down every instance summarizes on its own and applies its summary.
      if (step === 5) {
        for (const reply of replies) expect(reply.applied).toBeGreaterThan(0);
        expect(log.read().filter((line) => line.phase === 'start').length).toBeGreaterThan(runsBefore);
      }
    }
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((reason) => reason === 'unavailable' || reason === 'timeout')).toBe(true);
  });
}
