import { loadConversation } from '../src/run/conversation-cache';
import { runSummarizer } from '../src/run/run-job';
import { checkpointTurns } from '../src/run/run-strategy';
import { defaultStrategies } from '../src/strategies/default-strategies';
import { createTokenCounter } from '../src/tokens/token-counter';
import { requestText } from '../src/request/bench-request';
import { expectationAt, allPresent } from '../src/score/needle-checks';
const budget = Number(process.argv[2]);
const kind = process.argv[3]!;
const counter = createTokenCounter();
const m = new Map<string, number>();
for (const [seed, turns] of [[1, 60], [2, 150], [3, 300]]) {
  const { conversation, tokens } = loadConversation({ seed: seed!, turns: turns!, split: (process.env.SPLIT ?? 'tune') as 'tune', counter, dir: false });
  const contextWindow = Math.floor(tokens * budget);
  const strategy = defaultStrategies().find((s) => s.name === (process.env.S ?? 'Spillway'))!;
  const session = await strategy.start({ conversation, contextWindow, summarizer: await runSummarizer(conversation), counter, steering: createTokenCounter({ text: 'estimate' }) });
  const cps = new Set(checkpointTurns(turns!));
  const last = new Map<number, number>();
  conversation.calls.forEach((c, i) => last.set(c.turn, i));
  for (let i = 0; i < conversation.calls.length; i++) {
    const call = conversation.calls[i]!;
    const { delivered } = await session.step(call);
    if (!(cps.has(call.turn) && last.get(call.turn) === i) || !delivered) continue;
    const text = requestText(delivered);
    for (const n of conversation.needles) {
      if (n.kind !== kind) continue;
      const e = expectationAt(n, call.turn); if (!e) continue;
      const src = n.placements.at(-1)!.source;
      const k = `${src} ${allPresent(text, e.values) ? 'kept' : 'lost'}`;
      m.set(k, (m.get(k) ?? 0) + 1);
    }
  }
}
console.log(process.env.S ?? 'Spillway', [...m].sort());
