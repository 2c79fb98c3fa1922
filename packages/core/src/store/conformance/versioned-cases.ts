import type { CompactionStore } from '../compaction-store';
import { isVersionedStore, type VersionedCompactionStore } from '../versioned-compaction-store';
import { check, same } from './conformance-assertions';
import type { ConformanceGroup } from './conformance-group';
import { conformanceState } from './conformance-state';

/** `read` and `compareAndSet`: revisions, conflicts, one winner of a race. */
export function versionedCases({ add, options: { concurrency } }: ConformanceGroup): void {
  const versioned = (store: CompactionStore): store is VersionedCompactionStore => isVersionedStore(store);

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
}
