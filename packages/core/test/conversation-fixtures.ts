import type { ImagePart, Message, ToolCallPart, ToolResultPart } from '../src/message/message';

/** A deterministic PRNG (mulberry32), so fixtures are the same on every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/** The bytes of a real PNG header (signature + IHDR) for an image of the given size. */
export function pngHeader(width: number, height: number): Uint8Array {
  const bytes = new Uint8Array(33);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  const view = new DataView(bytes.buffer);
  view.setUint32(16, width);
  view.setUint32(20, height);
  bytes.set([8, 6, 0, 0, 0], 24);
  return bytes;
}

export function pngBase64(width: number, height: number, paddingBytes = 2048): string {
  const header = pngHeader(width, height);
  const bytes = new Uint8Array(header.length + paddingBytes);
  bytes.set(header);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

export function screenshot(width = 1280, height = 800): ImagePart {
  return { type: 'image', data: pngBase64(width, height), mediaType: 'image/png' };
}

const WORDS = [
  'the',
  'service',
  'returns',
  'a',
  'list',
  'of',
  'orders',
  'for',
  'each',
  'customer',
  'and',
  'logs',
  'errors',
  'when',
  'timeout',
  'is',
  'reached',
  'config',
  'value',
  'cache',
  'request',
  'handler',
];

export function prose(random: () => number, words: number): string {
  const out: string[] = [];
  for (let index = 0; index < words; index++) out.push(WORDS[Math.floor(random() * WORDS.length)]!);
  return `${out.join(' ')}.`;
}

/** A file-like tool output of about `chars` characters, many lines. */
export function fileContent(random: () => number, chars: number, name = 'src/app.ts'): string {
  const lines: string[] = [`// ${name}`];
  let length = lines[0]!.length;
  let line = 1;
  while (length < chars) {
    const text = `export const value${line} = ${Math.floor(random() * 100000)}; // ${prose(random, 6)}`;
    lines.push(text);
    length += text.length + 1;
    line++;
  }
  return lines.join('\n').slice(0, chars);
}

export interface AgentConversationOptions {
  /** User turns. */
  turns: number;
  /** Tool calls per user turn (each followed by its result). */
  toolCallsPerTurn?: number;
  /** Characters per tool result. */
  toolResultChars?: number;
  /** Every n-th turn carries a screenshot in its tool result. 0 = none. */
  screenshotEvery?: number;
  /** Every n-th turn makes two parallel calls in one assistant message. 0 = none. */
  parallelEvery?: number;
  /** Include a system prompt. */
  system?: boolean;
  seed?: number;
}

/**
 * A long agent session: system prompt, user requests naming files and ids, assistant tool calls
 * (some parallel), big tool results, screenshots, assistant conclusions.
 */
export function agentConversation({
  turns,
  toolCallsPerTurn = 2,
  toolResultChars = 6000,
  screenshotEvery = 0,
  parallelEvery = 0,
  system = true,
  seed = 1,
}: AgentConversationOptions): Message[] {
  const random = seededRandom(seed);
  const messages: Message[] = [];
  if (system)
    messages.push({
      role: 'system',
      content: 'You are a careful coding agent. Use tools to inspect the repository.',
    });
  let callId = 0;
  for (let turn = 0; turn < turns; turn++) {
    messages.push({
      role: 'user',
      content: `Turn ${turn}: please check src/module${turn}.ts and ticket ABC-${100 + turn}; ${prose(random, 12)}`,
    });
    const parallel = parallelEvery > 0 && turn % parallelEvery === 0;
    for (let step = 0; step < toolCallsPerTurn; step++) {
      const calls: ToolCallPart[] = [];
      const count = parallel && step === 0 ? 2 : 1;
      for (let index = 0; index < count; index++) {
        calls.push({
          type: 'tool-call',
          toolCallId: `call-${callId++}`,
          toolName: step % 2 === 0 ? 'read_file' : 'run_tests',
          input: { path: `src/module${turn}-${step}-${index}.ts` },
        });
      }
      messages.push({
        role: 'assistant',
        content: [{ type: 'text', text: `Checking step ${step}.` }, ...calls],
      });
      const results: ToolResultPart[] = calls.map((call) => {
        const withImage = screenshotEvery > 0 && turn % screenshotEvery === 0 && step === 0;
        const text = fileContent(random, toolResultChars, String((call.input as { path: string }).path));
        return {
          type: 'tool-result',
          toolCallId: call.toolCallId,
          toolName: call.toolName,
          content: withImage ? [{ type: 'text', text }, screenshot()] : text,
        };
      });
      messages.push({ role: 'tool', content: results });
    }
    messages.push({ role: 'assistant', content: `Done with turn ${turn}: ${prose(random, 20)}` });
  }
  return messages;
}

/** Every tool call has its result and every result its call, in order. */
export function assertToolPairsIntact(messages: readonly Message[]): void {
  const calls = new Map<string, number>();
  const results = new Map<string, number>();
  messages.forEach((message, index) => {
    if (typeof message.content === 'string') return;
    for (const part of message.content) {
      if (part.type === 'tool-call') calls.set(part.toolCallId, index);
      if (part.type === 'tool-result') results.set(part.toolCallId, index);
    }
  });
  for (const [id, index] of results) {
    const callIndex = calls.get(id);
    if (callIndex === undefined) throw new Error(`tool result ${id} at ${index} has no call`);
    if (callIndex >= index)
      throw new Error(`tool result ${id} at ${index} precedes its call at ${callIndex}`);
  }
  for (const [id, index] of calls) {
    if (!results.has(id)) throw new Error(`tool call ${id} at ${index} has no result`);
  }
}

/** Freezes a value and everything inside it, so a mutation throws. */
export function deepFreeze<T>(value: T): T {
  if (
    value !== null &&
    typeof value === 'object' &&
    !Object.isFrozen(value) &&
    !(value instanceof Uint8Array)
  ) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * Engine options under which only a summary can make room (the reductions that need no model are
 * off): for tests of the summary machinery — flights, leases, back-off, background work — on
 * tool-heavy fixtures, where the default tiers would clear the tool output instead.
 */
export const SUMMARY_ONLY = {
  toolResultReduction: false,
  supersedeToolResults: false,
  imagePlaceholders: false,
} as const;
