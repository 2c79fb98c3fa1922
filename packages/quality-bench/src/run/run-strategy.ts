import type { Conversation } from '../conversation/conversation';
import type { Prober } from '../probes/create-prober';
import { type BenchRequest, messageTexts, partTexts, type RequestMessage } from '../request/bench-request';
import { fromLanguageModelPrompt } from '../request/from-language-model-prompt';
import { commonPrefixLength, createMessageKeys, isPrefix } from '../request/message-keys';
import { emptyRunScore, type RunScore } from '../score/run-score';
import { addCheckpoint, scoreCheckpoint } from '../score/score-checkpoint';
import type { ReadBackCall, Strategy } from '../strategies/strategy';
import type { BenchSummarizer } from '../summarizer/bench-summarizer';
import { createTokenCounter, type TokenCounter } from '../tokens/token-counter';

/** Options of {@link runStrategy}. */
export interface RunStrategyOptions {
  strategy: Strategy;
  conversation: Conversation;
  /** The budget as a share of the final conversation size. */
  budget: number;
  /** The window in tokens (budget × final conversation size). */
  contextWindow: number;
  summarizer: BenchSummarizer;
  counter: TokenCounter;
  /** @default an estimating counter (see `StrategyContext.steering`) */
  steering?: TokenCounter;
  /**
   * Asks a real model about every needle at each checkpoint, from the request it was sent
   * (real-model mode); none in the scripted mode.
   */
  prober?: Prober;
  /**
   * How many checkpoints: the last call of turns ⌈N·k/checkpoints⌉ (k = 1…checkpoints) is checked
   * for every needle planted before it.
   * @default 4
   */
  checkpoints?: number;
}

/** The turns whose last call is a checkpoint. */
export function checkpointTurns(turns: number, checkpoints = 4): number[] {
  const list = new Set<number>();
  for (let index = 1; index <= checkpoints; index++) list.add(Math.ceil((turns * index) / checkpoints) - 1);
  return [...list];
}

/** The texts of a message a model reads (tool-call arguments aside: frameworks re-serialize them). */
function textsWithoutCalls(message: RequestMessage): string[] {
  return message.parts.flatMap((part) => (part.type === 'tool-call' ? [] : partTexts(part))).filter(Boolean);
}

/** Whether the request carries `text` verbatim in one of its pieces (newest first). */
export function requestContains(request: BenchRequest, text: string): boolean {
  for (let index = request.length - 1; index >= 0; index--) {
    for (const piece of messageTexts(request[index]!)) if (piece.includes(text)) return true;
  }
  return false;
}

/** A read-back call and its result as the two messages a request carries them in. */
function readBackExchange(id: string, call: ReadBackCall): RequestMessage[] {
  return [
    {
      role: 'assistant',
      parts: [
        { type: 'tool-call', toolCallId: id, toolName: call.toolName, input: JSON.stringify(call.input) },
      ],
    },
    {
      role: 'tool',
      parts: [
        {
          type: 'tool-result',
          toolCallId: id,
          toolName: call.toolName,
          content: [{ type: 'text', text: call.output }],
        },
      ],
    },
  ];
}

/**
 * Plays one conversation through one strategy at one budget: every model call in order, each
 * handed the history so far; scores the requests the model received.
 */
export async function runStrategy({
  strategy,
  conversation,
  budget,
  contextWindow,
  summarizer,
  counter,
  steering = createTokenCounter({ text: 'estimate' }),
  checkpoints = 4,
  prober,
}: RunStrategyOptions): Promise<RunScore> {
  const score = emptyRunScore(strategy.name, budget);
  score.conversations = 1;
  score.turns = conversation.turns.length;
  score.calls = conversation.calls.length;
  const session = await strategy.start({ conversation, contextWindow, summarizer, counter, steering });
  const checkpointSet = new Set(checkpointTurns(conversation.turns.length, checkpoints));
  const lastCallOfTurn = new Map<number, number>();
  conversation.calls.forEach((call, index) => {
    lastCallOfTurn.set(call.turn, index);
  });
  const keyOf = createMessageKeys();
  // The tokens of `request` after the messages it shares from the start with the request before it:
  // what a prompt cache could not serve (a request's count is the sum of its messages').
  const uncachedTokens = (
    request: BenchRequest,
    keys: readonly string[],
    previous: readonly string[] | undefined,
  ) => counter.request(previous === undefined ? request : request.slice(commonPrefixLength(previous, keys)));
  // The last request of any kind, and the last request of the script (read-back requests aside).
  let previousKeys: string[] | undefined;
  let previousScriptKeys: string[] | undefined;

  for (let index = 0; index < conversation.calls.length; index++) {
    const call = conversation.calls[index]!;
    const started = performance.now();
    const cpu = process.cpuUsage();
    const { sent, delivered } = await session.step(call);
    const used = process.cpuUsage(cpu);
    score.wallMs += performance.now() - started;
    score.cpuMs += (used.user + used.system) / 1000;

    score.rejectedRequests += sent.length - (delivered === undefined ? 0 : 1);
    if (delivered === undefined) {
      score.failedCalls++;
    } else {
      const tokens = counter.request(delivered);
      score.tokensSent += tokens;
      score.largestShare = Math.max(score.largestShare, tokens / contextWindow);
      const turn = conversation.turns[call.turn]!;
      if (requestContains(delivered, turn.ask)) score.latestAskPresent++;
      const inProgress = fromLanguageModelPrompt(
        conversation.messages.slice(turn.userIndex, call.historyLength),
      );
      if (
        inProgress.every((message) =>
          textsWithoutCalls(message).every((text) => requestContains(delivered, text)),
        )
      ) {
        score.currentTurnIntact++;
      }
      const keys = delivered.map(keyOf);
      score.uncachedTokens += uncachedTokens(delivered, keys, previousKeys);
      if (previousKeys !== undefined && !isPrefix(previousKeys, keys)) {
        score.prefixBreaks++;
        if (previousScriptKeys !== undefined && isPrefix(previousScriptKeys, keys))
          score.readBackPrefixBreaks++;
      }
      previousKeys = keys;
      previousScriptKeys = keys;
    }
    if (checkpointSet.has(call.turn) && lastCallOfTurn.get(call.turn) === index) {
      const results = await scoreCheckpoint({
        request: delivered,
        needles: conversation.needles,
        turn: call.turn,
        readBack: session.readBack,
        history: conversation.messages.slice(0, call.historyLength),
      });
      addCheckpoint(score, results);
      if (prober !== undefined) {
        for (const probe of await prober.probe(
          delivered,
          results.map((result) => result.expectation),
        )) {
          for (const count of [score.probes[probe.expectation.needle.kind], score.probeTypes[probe.type]]) {
            count.total++;
            if (probe.correct) count.correct++;
            if (probe.judged) count.judged++;
          }
        }
      }
      if (delivered !== undefined) {
        // Each needle's read-back is a branch from the checkpoint's request: one more request per
        // call, holding the calls so far and their results, counted whole; the prefix is tracked
        // across them, so the next script call is compared with the last read-back request.
        const base = counter.request(delivered);
        const baseKeys = delivered.map(keyOf);
        for (const result of results) {
          let appended = 0;
          let keys = baseKeys;
          let request: BenchRequest = delivered;
          result.calls.forEach((readCall, order) => {
            const id = `readback_${call.turn}_${result.expectation.needle.id}_${order}`;
            const exchange = readBackExchange(id, readCall);
            appended += counter.request(exchange);
            score.readBackCalls++;
            score.readBackTokens += base + appended;
            keys = [...keys, ...exchange.map(keyOf)];
            request = [...request, ...exchange];
            score.uncachedTokens += uncachedTokens(request, keys, previousKeys);
            if (previousKeys !== undefined && !isPrefix(previousKeys, keys)) {
              score.prefixBreaks++;
              score.readBackPrefixBreaks++;
            }
            previousKeys = keys;
          });
        }
      }
    }
  }
  if (prober !== undefined) {
    score.probeCalls = prober.calls();
    score.probeTokens = prober.tokens();
  }
  score.summarizerCalls = session.summarizerCalls();
  score.summarizerTokens = session.summarizerTokens();
  score.uncachedTokens += score.summarizerTokens;
  return score;
}
