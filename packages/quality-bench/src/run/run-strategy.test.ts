import { describe, expect, it } from 'vitest';
import { generateConversation } from '../conversation/generate-conversation';
import type { BenchRequest } from '../request/bench-request';
import { fromLanguageModelPrompt } from '../request/from-language-model-prompt';
import { allClasses } from '../score/run-score';
import type { Strategy } from '../strategies/strategy';
import { createTokenCounter } from '../tokens/token-counter';
import { checkpointTurns, requestContains, runStrategy } from './run-strategy';

const conversation = generateConversation({ seed: 8, turns: 40 });
const counter = createTokenCounter();
const summarizer = { name: 'none', summarize: () => 'unused' };

/** A hand-made strategy: builds each request from the history with `shape`. */
function handMade(name: string, shape: (history: BenchRequest) => BenchRequest | undefined): Strategy {
  return {
    name,
    summarizes: false,
    readsBack: false,
    async start({ conversation: played }) {
      return {
        async step(call) {
          const history = fromLanguageModelPrompt([
            { role: 'system', content: played.system },
            ...played.messages.slice(0, call.historyLength),
          ]);
          const request = shape(history);
          return { sent: request === undefined ? [] : [request], delivered: request };
        },
        summarizerCalls: () => 0,
        summarizerTokens: () => 0,
      };
    },
  };
}

const run = (strategy: Strategy) =>
  runStrategy({ strategy, conversation, budget: 1, contextWindow: 10_000_000, summarizer, counter });

describe('runStrategy', () => {
  it('checks the last call of the turns at each quarter', () => {
    expect(checkpointTurns(40)).toEqual([9, 19, 29, 39]);
    expect(checkpointTurns(5, 4)).toEqual([1, 2, 3, 4]);
  });

  it('scores a strategy that sends everything: every needle kept, the ask always there, no prefix break', async () => {
    const score = await run(handMade('everything', (history) => history));
    const all = allClasses(score);
    expect(all.total).toBeGreaterThan(10);
    expect(all.survived).toBe(all.total);
    expect(score.supersededCorrect).toBe(score.classes.superseded.total);
    expect(score.latestAskPresent).toBe(conversation.calls.length);
    expect(score.currentTurnIntact).toBe(conversation.calls.length);
    expect(score.prefixBreaks).toBe(0);
    expect(score.failedCalls).toBe(0);
    const last = conversation.calls.at(-1)!;
    expect(score.tokensSent).toBe(
      conversation.calls.reduce(
        (sum, call) =>
          sum +
          counter.request(
            fromLanguageModelPrompt([
              { role: 'system', content: conversation.system },
              ...conversation.messages.slice(0, call.historyLength),
            ]),
          ),
        0,
      ),
    );
    expect(last.historyLength).toBeGreaterThan(0);
  });

  it('scores a strategy that sends only the current turn: nothing older kept, a prefix break on every new turn', async () => {
    const score = await run(
      handMade('current turn', (history) => {
        let start = history.length - 1;
        while (start > 0 && history[start]!.role !== 'user') start--;
        return [history[0]!, ...history.slice(start)];
      }),
    );
    expect(allClasses(score).survived).toBe(0);
    expect(score.latestAskPresent).toBe(conversation.calls.length);
    expect(score.currentTurnIntact).toBe(conversation.calls.length);
    // Within a turn the request only grows; each new turn starts over.
    expect(score.prefixBreaks).toBe(conversation.turns.length - 1);
  });

  it('counts the turn in progress as intact only when every tool result of it is there in full', async () => {
    const score = await run(
      handMade('results cut', (history) =>
        history.map((message) => ({
          ...message,
          parts: message.parts.map((part) =>
            part.type === 'tool-result'
              ? {
                  ...part,
                  content: part.content.map((item) =>
                    item.type === 'text' ? { ...item, text: item.text.slice(0, 50) } : item,
                  ),
                }
              : part,
          ),
        })),
      ),
    );
    const withResults = conversation.calls.filter((call) => call.step > 0).length;
    expect(withResults).toBeGreaterThan(0);
    expect(score.latestAskPresent).toBe(conversation.calls.length);
    expect(score.currentTurnIntact).toBe(conversation.calls.length - withResults);
  });

  it('scores failed calls as nothing delivered', async () => {
    const score = await run(handMade('failing', () => undefined));
    expect(score.failedCalls).toBe(conversation.calls.length);
    expect(score.latestAskPresent).toBe(0);
    expect(allClasses(score).survived).toBe(0);
    expect(score.tokensSent).toBe(0);
  });

  it('finds the latest ask only when the whole of it is there', () => {
    const ask = conversation.turns[3]!.ask;
    const whole: BenchRequest = [{ role: 'user', parts: [{ type: 'text', text: `before ${ask} after` }] }];
    const cut: BenchRequest = [{ role: 'user', parts: [{ type: 'text', text: ask.slice(0, -3) }] }];
    expect(requestContains(whole, ask)).toBe(true);
    expect(requestContains(cut, ask)).toBe(false);
  });
});
