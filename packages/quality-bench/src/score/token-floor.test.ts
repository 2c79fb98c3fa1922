import { describe, expect, it } from 'vitest';
import { generateConversation } from '../conversation/generate-conversation';
import { seededRandom } from '../random/seeded-random';
import { fromLanguageModelPrompt } from '../request/from-language-model-prompt';
import { createTokenCounter } from '../tokens/token-counter';
import { type CallTokens, callTokens, suiteTokenFloor, tokenFloors } from './token-floor';

const calls = (dialogue: number[], toolOutput: number[]): CallTokens => ({
  dialogue: Float64Array.from(dialogue),
  toolOutput: Float64Array.from(toolOutput),
});

/** Every set of break positions, tried one by one: what the floor must equal. */
function bruteForce({ dialogue, toolOutput }: CallTokens, window: number, breaks: number): number {
  const count = dialogue.length;
  let best = Number.POSITIVE_INFINITY;
  for (let mask = 0; mask < 1 << (count - 1); mask++) {
    const starts = [0];
    for (let call = 1; call < count; call++) if (mask & (1 << (call - 1))) starts.push(call);
    if (starts.length - 1 > breaks) continue;
    let total = 0;
    let from = 0;
    let fits = true;
    for (let call = 0; call < count; call++) {
      if (starts.includes(call)) from = call;
      const request = dialogue[call]! + toolOutput[call]! - toolOutput[from]!;
      if (request > window) fits = false;
      total += request;
    }
    if (fits && total < best) best = total;
  }
  return best;
}

describe('tokenFloors', () => {
  it('is every request whole when all fit without a break', () => {
    const floors = tokenFloors(calls([10, 20, 30], [0, 100, 200]), 1_000, 2);
    expect(floors).toEqual([360, 160, 60]);
  });

  it('is not possible without the breaks the window forces', () => {
    // The last request (30 + 200) passes a window of 150 unless the output before it is cleared:
    // a break at the second call (10, 20, 130) or at the third (10, 120, 30).
    const floors = tokenFloors(calls([10, 20, 30], [0, 100, 200]), 150, 2);
    expect(floors[0]).toBe(Number.POSITIVE_INFINITY);
    expect(floors[1]).toBe(160);
    expect(floors[2]).toBe(60);
  });

  it('agrees with trying every set of break positions', () => {
    const random = seededRandom(7);
    for (let round = 0; round < 30; round++) {
      const count = 2 + Math.floor(random.next() * 8);
      let dialogue = 0;
      let output = 0;
      const dialogues: number[] = [];
      const outputs: number[] = [];
      for (let call = 0; call < count; call++) {
        dialogue += Math.floor(random.next() * 30);
        output += Math.floor(random.next() * 200);
        dialogues.push(dialogue);
        outputs.push(output);
      }
      const tokens = calls(dialogues, outputs);
      const window = dialogue + Math.floor(random.next() * output);
      const floors = tokenFloors(tokens, window, count);
      for (let breaks = 0; breaks <= count; breaks++) {
        expect(floors[breaks]).toBe(bruteForce(tokens, window, breaks));
      }
    }
  });

  it('counts a conversation call by call: its dialogue and tool output, the system prompt in the dialogue', () => {
    const conversation = generateConversation({ seed: 3, turns: 12 });
    const counter = createTokenCounter();
    const { dialogue, toolOutput } = callTokens(conversation, counter);
    expect(dialogue.length).toBe(conversation.calls.length);
    const last = conversation.calls.at(-1)!;
    const whole = counter.request(
      fromLanguageModelPrompt([
        { role: 'system', content: conversation.system },
        ...conversation.messages.slice(0, last.historyLength),
      ]),
    );
    expect(Math.abs(dialogue.at(-1)! + toolOutput.at(-1)! - whole)).toBeLessThan(0.02 * whole);
    expect(toolOutput.at(-1)!).toBeGreaterThan(dialogue.at(-1)!);
    for (let call = 1; call < dialogue.length; call++) {
      expect(dialogue[call]!).toBeGreaterThanOrEqual(dialogue[call - 1]!);
      expect(toolOutput[call]!).toBeGreaterThanOrEqual(toolOutput[call - 1]!);
    }
  });
});

describe('suiteTokenFloor', () => {
  it('shares the breaks among the conversations where they save most', () => {
    const first = [100, 60, 50];
    const second = [1_000, 400, 390];
    expect(suiteTokenFloor([first, second], 0)).toBe(1_100);
    expect(suiteTokenFloor([first, second], 1)).toBe(500);
    expect(suiteTokenFloor([first, second], 2)).toBe(460);
    expect(suiteTokenFloor([first, second], 9)).toBe(440);
    expect(suiteTokenFloor([[Number.POSITIVE_INFINITY, 5], second], 0)).toBe(Number.POSITIVE_INFINITY);
  });
});
