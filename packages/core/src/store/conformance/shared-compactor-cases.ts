import { createCompactor } from '../../compact/create-compactor';
import type { Message } from '../../message/message';
import type { CompactionStore } from '../compaction-store';
import { isLeasingStore, type LeasingCompactionStore } from '../leasing-compaction-store';
import { check, same, sleep } from './conformance-assertions';
import type { ConformanceGroup } from './conformance-group';

/** `createCompactor` on the store: one threshold crossing, one summarizer run across compactors. */
export function sharedCompactorCases({ add }: ConformanceGroup): void {
  const leasing = (store: CompactionStore): store is LeasingCompactionStore => isLeasingStore(store);

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
}
