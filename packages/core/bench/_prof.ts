import { createCompactor } from '../src/compact/create-compactor.ts';
import type { Message } from '../src/message/message.ts';
import { agentConversation } from '../test/conversation-fixtures.ts';

const size = Number(process.env.N ?? 10000);
const mode = process.env.MODE ?? 'summary';
const messages = agentConversation({
  turns: Math.ceil(size / 6),
  toolCallsPerTurn: 2,
  toolResultChars: 4_000,
}).slice(0, size);
const body = JSON.stringify(messages);
const roomy = createCompactor({ contextWindow: 100_000_000 });
const tokens = roomy.estimator.countMessages(messages);
const tight = createCompactor({ contextWindow: Math.ceil(tokens / 3) });
await tight.compact(messages, { conversationId: 'summary' });
await tight.prepare(messages, { conversationId: 'summary' });
const c = mode === 'summary' ? tight : roomy;
const id = mode === 'summary' ? 'summary' : 'under';
let total = 0;
const R = Number(process.env.R ?? 30);
for (let i = 0; i < R; i++) {
  const input = JSON.parse(body) as Message[];
  const t = performance.now();
  const r = await c.prepare(input, { conversationId: id });
  total += performance.now() - t;
  if (i === 0) console.log(r.actions);
}
console.log('avg ms', (total / R).toFixed(3), 'per msg us', ((total / R / size) * 1000).toFixed(3));
