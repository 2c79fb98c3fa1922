import { createCompactor } from '../src/compact/create-compactor.ts';
import { codingMessages } from './coding-session.bench.ts';

for (const size of [500, 2000, 10000, 50000]) {
  const messages = codingMessages(size);
  const tokens = createCompactor({ contextWindow: 100_000_000 }).estimator.countMessages(messages);
  const reducing = createCompactor({ contextWindow: Math.ceil(tokens / 2) });
  const r = await reducing.prepare(messages, { conversationId: 'r' });
  const summarized = createCompactor({ contextWindow: Math.ceil(tokens / 1.5) });
  await summarized.compact(messages.slice(0, Math.floor(messages.length * 0.3)), { conversationId: 's' });
  const s = await summarized.prepare(messages, { conversationId: 's' });
  console.log(
    size,
    'reducing',
    r.actions.join(','),
    r.messages.length,
    '| summary',
    s.actions.join(','),
    s.messages.length,
  );
}
