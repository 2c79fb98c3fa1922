import { createCompactor } from '../../compact/create-compactor';
import type { Message } from '../../message/message';
import type { CompactionState } from '../compaction-state';
import type { CompactionStore } from '../compaction-store';
import { isLeasingStore, type LeasingCompactionStore } from '../leasing-compaction-store';
import { isVersionedStore, type VersionedCompactionStore } from '../versioned-compaction-store';

/** Options of {@link storeConformanceCases}. */
export interface StoreConformanceOptions {
  /**
   * Makes the store under test. Called once per case; return a new instance or the same one (every
   * case uses conversation ids of its own, so a shared server is fine).
   */
  createStore: () => CompactionStore | Promise<CompactionStore>;
  /**
   * Called after each case with the store it made (close connections here).
   * @default nothing
   */
  closeStore?: (store: CompactionStore) => void | Promise<void>;
  /**
   * Writes `value` verbatim under the conversation's key, bypassing the store, as a corrupt or
   * foreign writer would. Given, the cases also check that such values are reported and never
   * overwritten.
   * @default undefined (those cases are skipped)
   */
  writeRawValue?: (store: CompactionStore, conversationId: string, value: string) => Promise<void>;
  /**
   * Reads the raw value under the conversation's key back (pairs with `writeRawValue`).
   * @default undefined
   */
  readRawValue?: (store: CompactionStore, conversationId: string) => Promise<string | undefined>;
  /**
   * The lease time used by the expiry cases, in milliseconds. Keep it short; the cases wait a few
   * times this long.
   * @default 200
   */
  shortLeaseMs?: number;
  /**
   * How many concurrent writers and lease takers the race cases start.
   * @default 16
   */
  concurrency?: number;
}

/** The part of the contract a case checks. */
export type StoreCapability = 'basic' | 'versioned' | 'leasing' | 'raw';

/** One conformance check. */
export interface StoreConformanceCase {
  name: string;
  capability: StoreCapability;
  /**
   * Runs the check: resolves `'passed'`, or `'skipped'` when the store lacks the capability (or
   * the raw-value hooks were not given); rejects with an `Error` saying what broke the contract.
   */
  run(): Promise<'passed' | 'skipped'>;
}

class ConformanceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreConformanceError';
  }
}

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new ConformanceError(message);
}

function same(actual: unknown, expected: unknown, message: string): void {
  const a = JSON.stringify(actual);
  const b = JSON.stringify(expected);
  check(a === b, `${message}\n  expected: ${b?.slice(0, 300)}\n  actual:   ${a?.slice(0, 300)}`);
}

async function rejects(work: () => Promise<unknown>, message: string): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new ConformanceError(message);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A state with recognisable content; `tag` makes each one different. */
export function conformanceState(
  tag: number,
  summary = `Summary ${tag}: the user asked for /src/app.ts`,
): CompactionState {
  return {
    version: 1,
    summaries: [summary],
    coveredCount: tag,
    coveredHash: `hash-${tag}`,
    tokensBefore: 1000 + tag,
    tokensAfter: 100 + tag,
    createdAt: 1_700_000_000_000 + tag,
    compactionCount: tag,
  };
}

let runCounter = 0;

/**
 * The store contract as a list of checks, framework-free: run them under any test runner, or all at
 * once with `checkCompactionStore`. The same list runs against `MemoryCompactionStore`,
 * `RedisCompactionStore` and `PostgresCompactionStore` in Spillway's own tests.
 *
 * @example
 * // vitest
 * for (const testCase of storeConformanceCases({ createStore: () => new MyStore(client) })) {
 *   it(testCase.name, async (context) => {
 *     if ((await testCase.run()) === 'skipped') context.skip();
 *   });
 * }
 */
export function storeConformanceCases({
  createStore,
  closeStore,
  writeRawValue,
  readRawValue,
  shortLeaseMs = 200,
  concurrency = 16,
}: StoreConformanceOptions): StoreConformanceCase[] {
  const run = ++runCounter;
  const prefix = `spillway-conformance-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}-${run}`;
  let caseCounter = 0;
  const cases: StoreConformanceCase[] = [];

  const add = <S extends CompactionStore>(
    name: string,
    capability: StoreCapability,
    supports: (store: CompactionStore) => store is S,
    body: (store: S, id: (suffix?: string) => string) => Promise<void>,
  ) => {
    const index = ++caseCounter;
    cases.push({
      name,
      capability,
      async run() {
        const store = await createStore();
        try {
          if (!supports(store)) return 'skipped';
          if (capability === 'raw' && (writeRawValue === undefined || readRawValue === undefined)) {
            return 'skipped';
          }
          const ids: string[] = [];
          const id = (suffix = '') => {
            const value = `${prefix}:${index}${suffix === '' ? '' : `:${suffix}`}`;
            ids.push(value);
            return value;
          };
          try {
            await body(store, id);
          } finally {
            for (const conversationId of new Set(ids)) await store.delete(conversationId).catch(() => {});
          }
          return 'passed';
        } finally {
          await closeStore?.(store);
        }
      },
    });
  };
  const any = (_store: CompactionStore): _store is CompactionStore => true;
  const versioned = (store: CompactionStore): store is VersionedCompactionStore => isVersionedStore(store);
  const leasing = (store: CompactionStore): store is LeasingCompactionStore => isLeasingStore(store);

  // ---- basic: get / set / delete -------------------------------------------------------------
  add('get returns undefined for a conversation never written', 'basic', any, async (store, id) => {
    check((await store.get(id())) === undefined, 'get of an unknown conversation must be undefined');
  });

  add('set then get returns an equal state, per conversation', 'basic', any, async (store, id) => {
    const a = id('a');
    const b = id('b');
    await store.set(a, conformanceState(1));
    await store.set(b, conformanceState(2));
    same(await store.get(a), conformanceState(1), 'get(a) must return what set(a) stored');
    same(await store.get(b), conformanceState(2), 'get(b) must return what set(b) stored');
  });

  add('set overwrites, delete forgets, delete of nothing is fine', 'basic', any, async (store, id) => {
    const conversation = id();
    await store.set(conversation, conformanceState(1));
    await store.set(conversation, conformanceState(2));
    same(await store.get(conversation), conformanceState(2), 'a second set must replace the first');
    await store.delete(conversation);
    check((await store.get(conversation)) === undefined, 'get after delete must be undefined');
    await store.delete(id('never-written'));
  });

  add('keeps large and non-ASCII summaries exactly', 'basic', any, async (store, id) => {
    const conversation = id();
    const summary = `Résumé 你好 🚀 "quotes" \\ back\nslash\t${'x'.repeat(200_000)} end`;
    const state = { ...conformanceState(3, summary), summaries: [summary, 'second: ü'] };
    await store.set(conversation, state);
    same(await store.get(conversation), state, 'a 200 KB non-ASCII summary must round-trip exactly');
  });

  add('conversation ids with odd characters stay apart', 'basic', any, async (store, id) => {
    const odd = [id('a:b'), id('{x}'), id('ü/ö %'), id('quote\'"')];
    for (const [index, conversation] of odd.entries())
      await store.set(conversation, conformanceState(index + 1));
    for (const [index, conversation] of odd.entries()) {
      same(await store.get(conversation), conformanceState(index + 1), `id ${JSON.stringify(conversation)}`);
    }
  });

  // ---- versioned: read / compareAndSet ------------------------------------------------------
  add(
    'read returns the state and a revision that grows with every write',
    'versioned',
    versioned,
    async (store, id) => {
      const conversation = id();
      check(
        (await store.read(conversation)) === undefined,
        'read of an unknown conversation must be undefined',
      );
      const first = await store.compareAndSet(conversation, conformanceState(1), { expectedRevision: 0 });
      check(first.ok, 'compareAndSet with expectedRevision 0 on an empty conversation must succeed');
      const read1 = await store.read(conversation);
      same(read1?.state, conformanceState(1), 'read must return the state written');
      check(
        read1?.revision === first.revision && first.revision >= 1,
        'read must return the revision the write returned',
      );
      await store.set(conversation, conformanceState(2));
      const read2 = await store.read(conversation);
      check(
        read2 !== undefined && read2.revision > read1!.revision,
        'a plain set must also raise the revision',
      );
      same(await store.get(conversation), conformanceState(2), 'get must see what set wrote');
      const third = await store.compareAndSet(conversation, conformanceState(3), {
        expectedRevision: read2!.revision,
      });
      check(
        third.ok && third.revision > read2!.revision,
        'compareAndSet at the current revision must succeed',
      );
      same(await store.get(conversation), conformanceState(3), 'get must see what compareAndSet wrote');
    },
  );

  add(
    'compareAndSet at a stale revision is a conflict and changes nothing',
    'versioned',
    versioned,
    async (store, id) => {
      const conversation = id();
      const first = await store.compareAndSet(conversation, conformanceState(1), { expectedRevision: 0 });
      check(first.ok, 'first write must succeed');
      const second = await store.compareAndSet(conversation, conformanceState(2), {
        expectedRevision: first.revision,
      });
      check(second.ok, 'second write must succeed');
      const late = await store.compareAndSet(conversation, conformanceState(9), {
        expectedRevision: first.revision,
      });
      same(late, { ok: false, reason: 'conflict' }, 'a write at a stale revision must be a conflict');
      const again = await store.compareAndSet(conversation, conformanceState(9), { expectedRevision: 0 });
      same(
        again,
        { ok: false, reason: 'conflict' },
        'expectedRevision 0 when a state exists must be a conflict',
      );
      const read = await store.read(conversation);
      same(read?.state, conformanceState(2), 'a rejected write must leave the newer state');
      check(read?.revision === second.revision, 'a rejected write must not change the revision');
    },
  );

  add('of concurrent writers at one revision exactly one wins', 'versioned', versioned, async (store, id) => {
    const conversation = id();
    const base = await store.compareAndSet(conversation, conformanceState(1), { expectedRevision: 0 });
    check(base.ok, 'first write must succeed');
    const results = await Promise.all(
      Array.from({ length: concurrency }, (_, index) =>
        store.compareAndSet(conversation, conformanceState(100 + index), { expectedRevision: base.revision }),
      ),
    );
    const winners = results.flatMap((result, index) => (result.ok ? [index] : []));
    check(
      winners.length === 1,
      `exactly one of ${concurrency} concurrent writers must win, ${winners.length} did`,
    );
    same(
      await store.get(conversation),
      conformanceState(100 + winners[0]!),
      "the winner's state must be stored",
    );
    const fresh = await Promise.all(
      Array.from({ length: concurrency }, (_, index) =>
        store.compareAndSet(id('empty'), conformanceState(200 + index), { expectedRevision: 0 }),
      ),
    );
    check(
      fresh.filter((result) => result.ok).length === 1,
      'exactly one first write to an empty conversation must win',
    );
  });

  add('delete resets the conversation to no state', 'versioned', versioned, async (store, id) => {
    const conversation = id();
    await store.set(conversation, conformanceState(1));
    await store.delete(conversation);
    check((await store.read(conversation)) === undefined, 'read after delete must be undefined');
    const write = await store.compareAndSet(conversation, conformanceState(2), { expectedRevision: 0 });
    check(write.ok, 'after delete, a write expecting no state must succeed');
  });

  // ---- leasing: acquire / renew / release / fencing -------------------------------------------
  add('a lease has one holder at a time', 'leasing', leasing, async (store, id) => {
    const conversation = id();
    const first = await store.acquireLease(conversation, { holder: 'a', ttlMs: 30_000 });
    check(first.acquired, 'a free lease must be acquired');
    check(
      first.lease.token >= 1 && first.lease.holder === 'a',
      'the lease must carry a token ≥ 1 and its holder',
    );
    check(first.lease.expiresAt > Date.now() - 60_000, 'expiresAt must be a time (ms since epoch)');
    const second = await store.acquireLease(conversation, { holder: 'b', ttlMs: 30_000 });
    check(!second.acquired, 'a held lease must not be acquired by another holder');
    if (second.current) check(second.current.holder === 'a', 'the answer must name the current holder');
    const other = await store.acquireLease(id('other'), { holder: 'b', ttlMs: 30_000 });
    check(other.acquired, "a lease on one conversation must not block another's");
  });

  add('of concurrent takers exactly one gets the lease', 'leasing', leasing, async (store, id) => {
    const conversation = id();
    const results = await Promise.all(
      Array.from({ length: concurrency }, (_, index) =>
        store.acquireLease(conversation, { holder: `h${index}`, ttlMs: 30_000 }),
      ),
    );
    check(results.filter((result) => result.acquired).length === 1, 'exactly one concurrent taker must win');
  });

  add('release frees the lease; the next grant has a larger token', 'leasing', leasing, async (store, id) => {
    const conversation = id();
    const first = await store.acquireLease(conversation, { holder: 'a', ttlMs: 30_000 });
    check(first.acquired, 'a free lease must be acquired');
    await store.releaseLease(conversation, { token: first.lease.token + 1000 });
    check(
      !(await store.acquireLease(conversation, { holder: 'b', ttlMs: 30_000 })).acquired,
      'release with a wrong token must not free the lease',
    );
    await store.releaseLease(conversation, { token: first.lease.token });
    const second = await store.acquireLease(conversation, { holder: 'b', ttlMs: 30_000 });
    check(second.acquired, 'a released lease must be acquirable');
    check(second.lease.token > first.lease.token, 'each grant must have a larger fencing token');
  });

  add('renew extends a held lease and fails for a lost one', 'leasing', leasing, async (store, id) => {
    const conversation = id();
    const first = await store.acquireLease(conversation, { holder: 'a', ttlMs: shortLeaseMs });
    check(first.acquired, 'a free lease must be acquired');
    check(
      await store.renewLease(conversation, { token: first.lease.token, ttlMs: 30_000 }),
      'renew by the holder must succeed',
    );
    await sleep(shortLeaseMs * 2);
    check(
      !(await store.acquireLease(conversation, { holder: 'b', ttlMs: 30_000 })).acquired,
      'a renewed lease must outlive its first expiry',
    );
    check(
      !(await store.renewLease(conversation, { token: first.lease.token + 1000, ttlMs: 30_000 })),
      'renew with a wrong token must fail',
    );
    await store.releaseLease(conversation, { token: first.lease.token });
    check(
      !(await store.renewLease(conversation, { token: first.lease.token, ttlMs: 30_000 })),
      'renew after release must fail',
    );
  });

  add(
    'an expired lease can be taken over, and the old holder cannot write',
    'leasing',
    leasing,
    async (store, id) => {
      const conversation = id();
      const old = await store.acquireLease(conversation, { holder: 'old', ttlMs: shortLeaseMs });
      check(old.acquired, 'a free lease must be acquired');
      let taken: Awaited<ReturnType<LeasingCompactionStore['acquireLease']>> | undefined;
      const deadline = Date.now() + shortLeaseMs * 20 + 2_000;
      while (Date.now() < deadline) {
        taken = await store.acquireLease(conversation, { holder: 'new', ttlMs: 30_000 });
        if (taken.acquired) break;
        await sleep(Math.max(10, shortLeaseMs / 4));
      }
      check(taken?.acquired, `an expired lease must be acquirable (waited ${shortLeaseMs * 20 + 2_000} ms)`);
      check(taken.lease.token > old.lease.token, 'the new grant must have a larger token');
      check(
        !(await store.renewLease(conversation, { token: old.lease.token, ttlMs: 30_000 })),
        'the old holder must not renew a lease taken over',
      );
      const stale = await store.compareAndSet(conversation, conformanceState(1), {
        expectedRevision: 0,
        fencingToken: old.lease.token,
      });
      same(stale, { ok: false, reason: 'fenced' }, "the old holder's late write must be fenced");
      const fresh = await store.compareAndSet(conversation, conformanceState(2), {
        expectedRevision: 0,
        fencingToken: taken.lease.token,
      });
      check(fresh.ok, "the new holder's write must succeed");
      await store.releaseLease(conversation, { token: old.lease.token });
      check(
        !(await store.acquireLease(conversation, { holder: 'third', ttlMs: 30_000 })).acquired,
        "the old holder's release must not free the new holder's lease",
      );
      same(await store.get(conversation), conformanceState(2), "the new holder's state must stay");
    },
  );

  add('a write with a token never granted is fenced', 'leasing', leasing, async (store, id) => {
    const conversation = id();
    const never = await store.compareAndSet(conversation, conformanceState(1), {
      expectedRevision: 0,
      fencingToken: 987_654,
    });
    same(never, { ok: false, reason: 'fenced' }, 'a token that was never granted must be fenced');
    const lease = await store.acquireLease(conversation, { holder: 'a', ttlMs: 30_000 });
    check(lease.acquired, 'a free lease must be acquired');
    const wrong = await store.compareAndSet(conversation, conformanceState(1), {
      expectedRevision: 0,
      fencingToken: lease.lease.token + 1,
    });
    same(wrong, { ok: false, reason: 'fenced' }, 'a token above the granted one must be fenced');
    check((await store.read(conversation)) === undefined, 'fenced writes must change nothing');
  });

  add('the lease and the state are independent', 'leasing', leasing, async (store, id) => {
    const conversation = id();
    await store.set(conversation, conformanceState(1));
    const before = await store.read(conversation);
    const lease = await store.acquireLease(conversation, { holder: 'a', ttlMs: 30_000 });
    check(lease.acquired, 'a free lease must be acquired');
    same(await store.read(conversation), before, 'taking a lease must not change the state or revision');
    const write = await store.compareAndSet(conversation, conformanceState(2), {
      expectedRevision: before!.revision,
      fencingToken: lease.lease.token,
    });
    check(write.ok, "the holder's write at the current revision must succeed");
    const conflict = await store.compareAndSet(conversation, conformanceState(3), {
      expectedRevision: before!.revision,
      fencingToken: lease.lease.token,
    });
    same(conflict, { ok: false, reason: 'conflict' }, 'a valid token does not excuse a stale revision');
    await store.releaseLease(conversation, { token: lease.lease.token });
    same(await store.get(conversation), conformanceState(2), 'releasing must not change the state');
  });

  add(
    'two compactors sharing the store summarize one crossing once',
    'leasing',
    leasing,
    async (store, id) => {
      const conversation = id();
      let summarizerRuns = 0;
      let release!: () => void;
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      const summarizer = async () => {
        summarizerRuns++;
        await gate;
        return 'Summary: the user is building /srv/app with Postgres 16.';
      };
      const messages: Message[] = [];
      for (let turn = 0; turn < 12; turn++) {
        messages.push({ role: 'user', content: `Question ${turn}: ${'details '.repeat(120)}` });
        messages.push({ role: 'assistant', content: `Answer ${turn}: ${'explanation '.repeat(120)}` });
      }
      // A window the conversation fills to about 90%: over the compact threshold (85%).
      const contextWindow = Math.floor(createCompactor().estimator.countMessages(messages) / 0.9);
      let compactions = 0;
      const options = {
        summarizer,
        contextWindow,
        auditIdentifiers: false,
        summarizerMaxInputTokens: 1_000_000,
        lease: { ttlMs: 30_000, pollIntervalMs: 20 },
        onEvent: (event: { type: string }) => {
          if (event.type === 'compaction-start') compactions++;
        },
      };
      const a = createCompactor({ ...options, store });
      const b = createCompactor({ ...options, store });
      const first = a.prepare(messages, { conversationId: conversation });
      // Let the first compactor take the lease before the second asks.
      for (let tries = 0; tries < 200 && summarizerRuns === 0; tries++) await sleep(5);
      const second = b.prepare(messages, { conversationId: conversation });
      await sleep(50);
      release();
      const [resultA, resultB] = await Promise.all([first, second]);
      check(
        compactions === 1,
        `one crossing must make one compaction across compactors, made ${compactions}`,
      );
      check(summarizerRuns === 1, `one crossing must call the summarizer once, called ${summarizerRuns}`);
      check(resultA.stateChanged, 'the lease holder must make the new state');
      same(resultB.state, resultA.state, 'the waiting compactor must apply the same summary');
      same(await store.get(conversation), resultA.state, 'the new state must be stored');
    },
  );

  // ---- raw values: corrupt, foreign and future values -----------------------------------------
  add(
    'an unreadable value is reported, not returned, and never overwritten',
    'raw',
    any,
    async (store, id) => {
      const values = [
        'not json {',
        '{"some":"other app"}',
        '{"spillway":99,"revision":1,"state":{"version":99}}',
        '{"spillway":1,"revision":1,"state":{"version":1,"summaries":"oops"}}',
      ];
      for (const [index, value] of values.entries()) {
        const conversation = id(`raw${index}`);
        await writeRawValue!(store, conversation, value);
        await rejects(() => store.get(conversation), `get must reject for the raw value ${value}`);
        if (isVersionedStore(store)) {
          await rejects(() => store.read(conversation), `read must reject for the raw value ${value}`);
          const write = await store.compareAndSet(conversation, conformanceState(1), { expectedRevision: 0 });
          // `unreadable` where the store can tell; a store that checks only the revision may say
          // `conflict`. Either way the value must stay.
          check(!write.ok, `compareAndSet over ${value} must be refused, got ${JSON.stringify(write)}`);
          check(
            (await readRawValue!(store, conversation)) === value,
            `the raw value ${value} must be left as it was by compareAndSet`,
          );
        }
      }
    },
  );

  return cases;
}
