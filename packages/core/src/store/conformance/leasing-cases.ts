import type { CompactionStore } from '../compaction-store';
import { isLeasingStore, type LeasingCompactionStore } from '../leasing-compaction-store';
import { check, same, sleep } from './conformance-assertions';
import type { ConformanceGroup } from './conformance-group';
import { conformanceState } from './conformance-state';

/** The lease: one holder, expiry and takeover, release, renewal, fencing tokens. */
export function leasingCases({ add, options: { concurrency, shortLeaseMs } }: ConformanceGroup): void {
  const leasing = (store: CompactionStore): store is LeasingCompactionStore => isLeasingStore(store);

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
}
