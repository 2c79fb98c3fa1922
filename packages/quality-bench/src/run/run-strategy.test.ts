import { describe, expect, it } from 'vitest';
import { generateConversation } from '../conversation/generate-conversation';
import type { BenchRequest } from '../request/bench-request';
import { fromLanguageModelPrompt } from '../request/from-language-model-prompt';
import { allClasses } from '../score/run-score';
import type { ReadBack, Strategy } from '../strategies/strategy';
import { createTokenCounter } from '../tokens/token-counter';
import { checkpointTurns, requestContains, runStrategy } from './run-strategy';

const conversation = generateConversation({ seed: 8, turns: 40 });
const counter = createTokenCounter();
const summarizer = { name: 'none', summarize: () => 'unused' };

/** A hand-made strategy: builds each request from the history with `shape`. */
function handMade(
  name: string,
  shape: (history: BenchRequest) => BenchRequest | undefined,
  readBack?: ReadBack,
): Strategy {
  return {
    name,
    summarizes: false,
    readsBack: readBack !== undefined,
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
        ...(readBack ? { readBack } : {}),
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
    // Each request extends the one before: only what it adds is uncached, so the uncached tokens
    // add up to the last request's.
    const lastTokens = counter.request(
      fromLanguageModelPrompt([
        { role: 'system', content: conversation.system },
        ...conversation.messages.slice(0, last.historyLength),
      ]),
    );
    expect(score.uncachedTokens).toBeGreaterThan(0.95 * lastTokens);
    expect(score.uncachedTokens).toBeLessThan(1.05 * lastTokens);
    expect(score.uncachedTokens).toBeLessThan(score.tokensSent / 5);
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
    // A break right after the system prompt: each new turn's request is uncached but for it.
    const system = counter.request(
      fromLanguageModelPrompt([{ role: 'system', content: conversation.system }]),
    );
    const firstCalls = conversation.calls.filter((call) => call.step === 0);
    expect(score.uncachedTokens).toBeGreaterThan(0);
    expect(score.uncachedTokens).toBeLessThan(score.tokensSent - (firstCalls.length - 1) * system + 1);
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

  it('counts read-back calls as requests: their tokens in full, and the prefix they break', async () => {
    const currentTurn = (history: BenchRequest) => {
      let start = history.length - 1;
      while (start > 0 && history[start]!.role !== 'user') start--;
      return [history[0]!, ...history.slice(start)];
    };
    // Every needle lost; the read-back answers each with two calls.
    const readBack: ReadBack = async ({ question }) => [
      { toolName: 'search', input: { query: question.text }, output: `hits for ${question.text}` },
      { toolName: 'read', input: { ref: 'm1' }, output: 'a page of the transcript' },
    ];
    const without = await run(handMade('current turn', currentTurn));
    const score = await run(handMade('current turn + read-back', currentTurn, readBack));
    expect(score.tokensSent).toBe(without.tokensSent);
    const probes = allClasses(score).total;
    expect(score.readBackCalls).toBe(2 * probes);
    // Each call is one more request: the checkpoint's request, then the calls so far and their
    // results, counted whole. Recomputed here by hand.
    const exchange = (toolName: string, input: unknown, output: string): BenchRequest => [
      {
        role: 'assistant',
        parts: [{ type: 'tool-call', toolCallId: 'x', toolName, input: JSON.stringify(input) }],
      },
      {
        role: 'tool',
        parts: [
          { type: 'tool-result', toolCallId: 'x', toolName, content: [{ type: 'text', text: output }] },
        ],
      },
    ];
    let expected = 0;
    for (const checkpoint of checkpointTurns(conversation.turns.length)) {
      const call = [...conversation.calls].reverse().find((item) => item.turn === checkpoint)!;
      const base = currentTurn(
        fromLanguageModelPrompt([
          { role: 'system', content: conversation.system },
          ...conversation.messages.slice(0, call.historyLength),
        ]),
      );
      for (const needle of conversation.needles.filter((item) => item.placements[0]!.turn < checkpoint)) {
        const first = [
          ...base,
          ...exchange('search', { query: needle.question }, `hits for ${needle.question}`),
        ];
        const second = [...first, ...exchange('read', { ref: 'm1' }, 'a page of the transcript')];
        expected += counter.request(first) + counter.request(second);
      }
    }
    expect(score.readBackTokens).toBe(expected);
    // Each needle's read-back branches from the checkpoint's request: the first extends it, every
    // later one breaks the prefix, and so does the next call of the script (here it breaks anyway:
    // a new turn starts over).
    const checkpoints = checkpointTurns(conversation.turns.length);
    const perCheckpoint = checkpoints.map(
      (turn) => conversation.needles.filter((item) => item.placements[0]!.turn < turn).length,
    );
    const readBackBreaks = perCheckpoint.reduce((sum, count) => sum + Math.max(0, count - 1), 0);
    expect(score.readBackPrefixBreaks).toBe(readBackBreaks);
    expect(score.prefixBreaks).toBe(without.prefixBreaks + readBackBreaks);
  });

  it('finds the latest ask only when the whole of it is there', () => {
    const ask = conversation.turns[3]!.ask;
    const whole: BenchRequest = [{ role: 'user', parts: [{ type: 'text', text: `before ${ask} after` }] }];
    const cut: BenchRequest = [{ role: 'user', parts: [{ type: 'text', text: ask.slice(0, -3) }] }];
    expect(requestContains(whole, ask)).toBe(true);
    expect(requestContains(cut, ask)).toBe(false);
  });
});
