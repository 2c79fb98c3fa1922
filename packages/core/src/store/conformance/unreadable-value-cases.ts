import type { CompactionStore } from '../compaction-store';
import { isLeasingStore } from '../leasing-compaction-store';
import { isVersionedStore, type VersionedCompactionStore } from '../versioned-compaction-store';
import { check, rejects } from './conformance-assertions';
import type { ConformanceGroup } from './conformance-group';
import { conformanceState } from './conformance-state';

/**
 * States this version cannot read, laid out as the store lays out its own: wrong types, values out
 * of range, a newer release's format, missing fields, foreign JSON, not JSON at all.
 */
const UNREADABLE_STATES: readonly { label: string; text: string }[] = [
  {
    label: 'a field of the wrong type',
    text: JSON.stringify({ ...conformanceState(5), summaries: 'not a list' }),
  },
  { label: 'a count out of range', text: JSON.stringify({ ...conformanceState(5), coveredCount: -1 }) },
  {
    label: "a newer release's state",
    text: JSON.stringify({ ...conformanceState(5), version: 2, summaries: ['from the future'] }),
  },
  { label: 'missing fields', text: '{"version":1,"summaries":[]}' },
  { label: 'a foreign object', text: '{"some":"other app"}' },
  { label: 'not an object', text: '"just text"' },
  { label: 'not JSON', text: 'not json {' },
];

/** The revisions the unreadable states are written at. */
const REVISIONS = [1, 2, 7];

/** Values under a conversation's key that are not compaction states: reported, never overwritten. */
export function unreadableValueCases({ add, options }: ConformanceGroup): void {
  const any = (_store: CompactionStore): _store is CompactionStore => true;
  const versioned = (store: CompactionStore): store is VersionedCompactionStore => isVersionedStore(store);

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
        await options.writeRawValue!(store, conversation, value);
        await rejects(() => store.get(conversation), `get must reject for the raw value ${value}`);
        if (isVersionedStore(store)) {
          await rejects(() => store.read(conversation), `read must reject for the raw value ${value}`);
          const write = await store.compareAndSet(conversation, conformanceState(1), { expectedRevision: 0 });
          // `unreadable` where the store can tell; a store that checks only the revision may say
          // `conflict`. Either way the value must stay.
          check(!write.ok, `compareAndSet over ${value} must be refused, got ${JSON.stringify(write)}`);
          check(
            (await options.readRawValue!(store, conversation)) === value,
            `the raw value ${value} must be left as it was by compareAndSet`,
          );
        }
      }
    },
  );

  for (const { label, text } of UNREADABLE_STATES) {
    add(
      `an unreadable state (${label}) is refused by compareAndSet at every revision, and left as it is`,
      'raw',
      versioned,
      async (store, id) => {
        for (const revision of REVISIONS) {
          const conversation = id(`r${revision}`);
          await options.writeRawState!(store, conversation, { stateText: text, revision });
          const raw = await options.readRawValue!(store, conversation);
          check(raw !== undefined, 'readRawValue must return what writeRawState wrote');
          await rejects(() => store.read(conversation), `read must reject ${label} at revision ${revision}`);
          await rejects(() => store.get(conversation), `get must reject ${label} at revision ${revision}`);
          const unchanged = async (what: string) =>
            check(
              (await options.readRawValue!(store, conversation)) === raw,
              `${what} must leave ${label} (revision ${revision}) as it was`,
            );
          for (const expectedRevision of new Set([0, revision - 1, revision, revision + 1])) {
            const write = await store.compareAndSet(conversation, conformanceState(9), { expectedRevision });
            const what = `compareAndSet at revision ${expectedRevision} over ${label} carrying revision ${revision}`;
            check(!write.ok, `${what} must be refused, got ${JSON.stringify(write)}`);
            check(
              expectedRevision !== revision || write.reason === 'unreadable',
              `${what} must be refused as unreadable, got ${JSON.stringify(write)}`,
            );
            await unchanged(what);
          }
          if (isLeasingStore(store)) {
            const lease = await store.acquireLease(conversation, { holder: 'writer', ttlMs: 30_000 });
            check(lease.acquired, 'a free lease must be acquired over an unreadable state');
            const fenced = await store.compareAndSet(conversation, conformanceState(9), {
              expectedRevision: revision,
              fencingToken: lease.lease.token,
            });
            check(
              !fenced.ok,
              `a lease holder's compareAndSet over ${label} must be refused, got ${JSON.stringify(fenced)}`,
            );
            await unchanged("a lease holder's compareAndSet");
            await store.releaseLease(conversation, { token: lease.lease.token });
          }
          await store.delete(conversation);
          check((await store.read(conversation)) === undefined, 'delete must clear an unreadable state');
          const fresh = await store.compareAndSet(conversation, conformanceState(1), { expectedRevision: 0 });
          check(fresh.ok, 'after delete, a write expecting no state must succeed');
        }
      },
      ['writeRawState', 'readRawValue'],
    );
  }
}
