import { codingSession } from './test/coding-session';
import { createCompactor } from './src/compact/create-compactor';
import { createEstimator } from './src/estimate/create-estimator';
import { MemoryCompactionStore } from './src/store/memory-compaction-store';
const estimator = createEstimator();
const { messages: session } = codingSession({ seed: 11, turns: 120, chatRate: 0.3, currentSteps: 0 });
const compactor = createCompactor({ contextWindow: 24_000, estimator, store: new MemoryCompactionStore() });
const started = performance.now();
let calls = 0;
for (let end = 2; end <= session.length; end++) {
  const history = session.slice(0, end);
  const last = history.at(-1)!;
  if (last.role === 'assistant') { await compactor.afterResponse(history, { conversationId: 'coding' }); await compactor.idle(); continue; }
  if (last.role !== 'user' && last.role !== 'tool') continue;
  calls++;
  await compactor.prepare(history, { conversationId: 'coding' });
}
console.log(calls, Math.round(performance.now() - started), 'ms');
