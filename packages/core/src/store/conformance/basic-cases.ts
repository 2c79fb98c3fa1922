import type { CompactionStore } from '../compaction-store';
import { check, same } from './conformance-assertions';
import type { ConformanceGroup } from './conformance-group';
import { conformanceState } from './conformance-state';

/** `get`, `set` and `delete`: what every store does. */
export function basicCases({ add }: ConformanceGroup): void {
  const any = (_store: CompactionStore): _store is CompactionStore => true;

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
}
