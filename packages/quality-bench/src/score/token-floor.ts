import type { Conversation } from '../conversation/conversation';
import { fromLanguageModelPrompt } from '../request/from-language-model-prompt';
import type { TokenCounter } from '../tokens/token-counter';

/**
 * What each model call of a conversation holds, in tokens: `dialogue[i]`, the system prompt and
 * every message of call `i`'s history but tool results (the user's and the assistant's words, the
 * tool calls); `toolOutput[i]`, the tool results of that history. Both grow call by call.
 */
export interface CallTokens {
  readonly dialogue: Float64Array;
  readonly toolOutput: Float64Array;
}

/** {@link CallTokens} of `conversation`, each message counted once with `counter`. */
export function callTokens(conversation: Conversation, counter: TokenCounter): CallTokens {
  const { messages, calls } = conversation;
  const dialogueSums = new Float64Array(messages.length + 1);
  const toolSums = new Float64Array(messages.length + 1);
  messages.forEach((message, index) => {
    const tokens = counter.request(fromLanguageModelPrompt([message]));
    const tool = message.role === 'tool';
    dialogueSums[index + 1] = dialogueSums[index]! + (tool ? 0 : tokens);
    toolSums[index + 1] = toolSums[index]! + (tool ? tokens : 0);
  });
  const system = counter.request(fromLanguageModelPrompt([{ role: 'system', content: conversation.system }]));
  return {
    dialogue: Float64Array.from(calls, (call) => system + dialogueSums[call.historyLength]!),
    toolOutput: Float64Array.from(calls, (call) => toolSums[call.historyLength]!),
  };
}

/**
 * The fewest tokens the model calls of one conversation could be sent in, over a window of
 * `window` tokens, by any strategy that keeps every word of the dialogue verbatim and breaks the
 * request's prefix at most `k` times — for each `k` from 0 to `maxBreaks` (`Infinity`: not
 * possible). A lower bound, not a strategy: it knows where the conversation goes (it places each
 * break where it saves most), and a break clears every tool result before it to nothing (a
 * strategy keeps at least a stub). Between breaks each request is the one before plus what the
 * conversation added; no request may pass the window.
 */
export function tokenFloors(
  { dialogue, toolOutput }: CallTokens,
  window: number,
  maxBreaks: number,
): number[] {
  const calls = dialogue.length;
  // Prefix sums over calls, so a segment's cost is O(1).
  const dialogueTotal = new Float64Array(calls + 1);
  const toolTotal = new Float64Array(calls + 1);
  for (let call = 0; call < calls; call++) {
    dialogueTotal[call + 1] = dialogueTotal[call]! + dialogue[call]!;
    toolTotal[call + 1] = toolTotal[call]! + toolOutput[call]!;
  }
  // Calls `from`..`to` (exclusive) after a break at `from`: the tool output before it cleared.
  const cost = (from: number, to: number) =>
    dialogueTotal[to]! -
    dialogueTotal[from]! +
    toolTotal[to]! -
    toolTotal[from]! -
    (to - from) * toolOutput[from]!;
  // Requests only grow between breaks: the last of a segment is its largest.
  const fits = (from: number, to: number) =>
    dialogue[to - 1]! + toolOutput[to - 1]! - toolOutput[from]! <= window;
  const floors: number[] = [];
  // `ending[b]`: the fewest tokens for calls 0..b with the breaks so far, a segment ending at b.
  let ending = new Float64Array(calls + 1).fill(Number.POSITIVE_INFINITY);
  for (let to = 1; to <= calls && fits(0, to); to++) ending[to] = cost(0, to);
  floors.push(ending[calls]!);
  for (let breaks = 1; breaks <= Math.min(maxBreaks, calls - 1); breaks++) {
    const next = new Float64Array(calls + 1).fill(Number.POSITIVE_INFINITY);
    for (let from = 1; from < calls; from++) {
      const before = ending[from]!;
      if (before === Number.POSITIVE_INFINITY) continue;
      for (let to = from + 1; to <= calls && fits(from, to); to++) {
        const total = before + cost(from, to);
        if (total < next[to]!) next[to] = total;
      }
    }
    ending = next;
    floors.push(Math.min(floors[breaks - 1]!, ending[calls]!));
  }
  // More breaks than calls buy nothing more.
  while (floors.length <= maxBreaks) floors.push(floors.at(-1)!);
  return floors;
}

/**
 * The floor of several conversations together with at most `breaks` prefix breaks in all, shared
 * among them where they save most (each conversation's floors from {@link tokenFloors}).
 */
export function suiteTokenFloor(floors: readonly (readonly number[])[], breaks: number): number {
  let best = [0];
  for (const conversation of floors) {
    const next = new Array<number>(Math.min(breaks, best.length - 1 + conversation.length - 1) + 1).fill(
      Number.POSITIVE_INFINITY,
    );
    best.forEach((sofar, used) => {
      for (let own = 0; own < conversation.length && used + own < next.length; own++) {
        const total = sofar + conversation[own]!;
        if (total < next[used + own]!) next[used + own] = total;
      }
    });
    best = next;
  }
  return Math.min(...best);
}
