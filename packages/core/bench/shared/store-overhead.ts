/**
 * Per-request overhead of a compaction store: `prepare()` then `afterResponse()` (awaited: the
 * background check reads the store too) on one conversation, with the store under test and with
 * `MemoryCompactionStore`, measured in the same run, interleaved request by request so drift hits
 * both alike. Used by the benchmarks of @spillway/redis and @spillway/postgres.
 */
import { type CompactionStore, createCompactor, MemoryCompactionStore } from '../../src/index';
import { agentConversation } from '../../test/conversation-fixtures';
import { printTable } from './measure';

function percentile(values: readonly number[], share: number): number {
  const sorted = [...values].sort((first, second) => first - second);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]!;
}

const format = (milliseconds: number) => milliseconds.toFixed(3);

/** Options of {@link measureStoreOverhead}. */
export interface StoreOverheadOptions {
  /** Stores to compare with the memory store, by label. */
  stores: Record<string, CompactionStore>;
  /** Requests timed per store and situation. @default 400 */
  requests?: number;
  /** Messages in the conversation. @default 200 */
  messages?: number;
}

/** Measures and prints p50/p99 per request and what each store adds over the memory store. */
export async function measureStoreOverhead({
  stores,
  requests = 400,
  messages: size = 200,
}: StoreOverheadOptions): Promise<void> {
  const messages = agentConversation({ turns: Math.ceil(size / 6), toolResultChars: 4_000 }).slice(0, size);
  const tokens = createCompactor().estimator.countMessages(messages);
  const situations = {
    // Far under every threshold: read the state, find none, send the request as it is.
    'no summary': { contextWindow: tokens * 10 },
    // A stored summary applies to every request: read it, check its hash, rewrite the prefix.
    'summary applied': { contextWindow: Math.ceil(tokens / 1.5) },
  };
  const labels = ['memory', ...Object.keys(stores)];
  const all: Record<string, CompactionStore> = { memory: new MemoryCompactionStore(), ...stores };
  const rows: string[][] = [['situation', 'store', 'p50 ms', 'p99 ms', 'added p50 ms', 'added p99 ms']];
  for (const [situation, { contextWindow }] of Object.entries(situations)) {
    const conversationId = `bench-${situation}-${Date.now()}`;
    const compactors = Object.fromEntries(
      labels.map((label) => [label, createCompactor({ store: all[label]!, contextWindow })]),
    );
    // One compaction up front (when over the threshold), so every timed request applies the summary.
    for (const label of labels) {
      await compactors[label]!.prepare(messages, { conversationId });
      await compactors[label]!.idle();
    }
    const times: Record<string, number[]> = Object.fromEntries(labels.map((label) => [label, []]));
    for (let request = -20; request < requests; request++) {
      for (const label of labels) {
        const compactor = compactors[label]!;
        const start = performance.now();
        const prepared = await compactor.prepare(messages, { conversationId });
        await compactor.afterResponse(messages, {
          conversationId,
          inputTokens: prepared.estimatedTokens,
          estimatedTokens: prepared.estimatedTokens,
        });
        if (request >= 0) times[label]!.push(performance.now() - start);
      }
    }
    const memory = { p50: percentile(times.memory!, 0.5), p99: percentile(times.memory!, 0.99) };
    for (const label of labels) {
      const p50 = percentile(times[label]!, 0.5);
      const p99 = percentile(times[label]!, 0.99);
      rows.push([
        situation,
        label,
        format(p50),
        format(p99),
        label === 'memory' ? '(anchor)' : format(p50 - memory.p50),
        label === 'memory' ? '(anchor)' : format(p99 - memory.p99),
      ]);
    }
    for (const store of Object.values(all)) await store.delete(conversationId);
  }
  console.log(`\n## Per-request overhead of a shared store: prepare() + afterResponse(), ${size} messages\n`);
  printTable(rows);
}
