/**
 * Re-estimating a growing conversation: a realistic 500-message conversation (user and assistant
 * text, tool calls with JSON input, tool results of 1–30 KB, some images) is counted once by a
 * fresh estimator (cold), then a new message is appended and the whole list is counted again
 * (warm). Per-message memoisation makes the warm count cost one message plus 500 lookups.
 *
 * Run alone: `pnpm tsx bench/conversation.bench.ts` (from packages/core).
 */
import { createEstimator } from '../src/estimate/create-estimator.ts';
import type { Message, MessagePart } from '../src/message/message.ts';
import { CHINESE_PROSE } from './corpus/cjk-prose.ts';
import { ENGLISH_PROSE } from './corpus/english-prose.ts';
import {
  createRandom,
  generateJsonDocuments,
  generateLogLines,
  type Random,
  splitIntoSamples,
} from './corpus/generate-corpus.ts';
import { loadSourceCode } from './corpus/load-corpus.ts';
import { isMainModule, median, printTable, verdict } from './shared/measure.ts';

/** The warm re-count of 501 messages should take at most this long. */
const WARM_GOAL_MILLISECONDS = 0.1;
const CONVERSATION_LENGTH = 500;

/** A base64 PNG of the given size: a real header followed by `payloadBytes` of random data. */
function pngBase64(random: Random, width: number, height: number, payloadBytes: number): string {
  const header = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52];
  const size = [width, height].flatMap((value) => [
    value >>> 24,
    (value >>> 16) & 255,
    (value >>> 8) & 255,
    value & 255,
  ]);
  let binary = String.fromCharCode(...header, ...size, 8, 6, 0, 0, 0, 0, 0, 0, 0);
  for (let index = 0; index < payloadBytes; index++) binary += String.fromCharCode(random.integer(0, 255));
  return btoa(binary);
}

interface Sources {
  readonly prose: string[];
  readonly chinese: string[];
  readonly code: string;
  readonly json: string[];
  readonly logs: string;
}

function toolResultText(random: Random, sources: Sources): string {
  const size = random.integer(1_000, 30_000);
  const kind = random.integer(0, 2);
  if (kind === 0) {
    let text = '';
    while (text.length < size) text += `${random.pick(sources.json)}\n`;
    return text.slice(0, size);
  }
  const source = kind === 1 ? sources.logs : sources.code;
  const start = random.integer(0, Math.max(0, source.length - size));
  return source.slice(start, start + size);
}

/** A deterministic, realistic conversation of `length` messages. */
function buildConversation(seed: number, length: number, sources: Sources): Message[] {
  const random = createRandom(seed);
  const messages: Message[] = [{ role: 'system', content: random.pick(sources.prose) }];
  let call = 0;
  while (messages.length < length) {
    const turn = random.next();
    if (turn < 0.08) {
      messages.push({
        role: 'user',
        content: [
          { type: 'text', text: 'What do you see in this screenshot?' },
          {
            type: 'image',
            mediaType: 'image/png',
            data: pngBase64(
              random,
              random.integer(800, 2400),
              random.integer(600, 1600),
              random.integer(20_000, 80_000),
            ),
          },
        ],
      });
    } else if (turn < 0.35) {
      messages.push({
        role: 'user',
        content: random.next() < 0.15 ? random.pick(sources.chinese) : random.pick(sources.prose),
      });
    } else if (turn < 0.55) {
      messages.push({
        role: 'assistant',
        content: [
          { type: 'reasoning', text: random.pick(sources.prose).slice(0, 400) },
          { type: 'text', text: random.pick(sources.prose) },
        ],
      });
    } else {
      const toolCallId = `call_${(call++).toString(36)}_${random.integer(1e6, 9e6).toString(36)}`;
      const toolName = random.pick(['read_file', 'search_logs', 'query_orders', 'run_tests']);
      messages.push({
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me check.' },
          {
            type: 'tool-call',
            toolCallId,
            toolName,
            input: {
              path: `src/module-${random.integer(1, 80)}.ts`,
              query: random.pick(sources.prose).slice(0, 80),
              limit: 50,
            },
          },
        ],
      });
      const content: MessagePart[] = [
        { type: 'tool-result', toolCallId, toolName, content: toolResultText(random, sources) },
      ];
      messages.push({ role: 'tool', content });
    }
  }
  return messages.slice(0, length);
}

/** Prints the cold count and warm re-count times of a growing 500-message conversation. */
export async function run(): Promise<void> {
  console.log('\n## Re-estimating a growing conversation\n');
  const random = createRandom(42);
  const sources: Sources = {
    prose: splitIntoSamples(ENGLISH_PROSE, random, { count: 200, minimumChars: 80, maximumChars: 1500 }),
    chinese: splitIntoSamples(CHINESE_PROSE, random, { count: 40, minimumChars: 40, maximumChars: 600 }),
    code: loadSourceCode(),
    json: generateJsonDocuments(random, 300).map((document) => JSON.stringify(document, null, 2)),
    logs: generateLogLines(random, 2000),
  };

  // Cold: a fresh estimator and fresh message objects each time (image headers are memoised per
  // part object, so reusing the objects would not be cold).
  const coldTimes: number[] = [];
  let conversation: Message[] = [];
  let tokens = 0;
  for (let repetition = 0; repetition < 7; repetition++) {
    conversation = buildConversation(7, CONVERSATION_LENGTH, sources);
    const estimator = createEstimator();
    const start = performance.now();
    tokens = estimator.countMessages(conversation);
    coldTimes.push(performance.now() - start);
  }
  const characters = conversation.reduce(
    (sum, message) =>
      sum +
      (typeof message.content === 'string' ? message.content.length : JSON.stringify(message.content).length),
    0,
  );

  // Warm: one estimator that has counted the conversation; each repetition appends a new message
  // object to the same 500 and counts all 501.
  const estimator = createEstimator();
  estimator.countMessages(conversation);
  const newMessages = Array.from(
    { length: 3000 },
    (_, index): Message => ({
      role: index % 2 === 0 ? 'user' : 'assistant',
      content: random.pick(sources.prose),
    }),
  );
  const warmTimes: number[] = [];
  let sink = 0;
  for (const [index, message] of newMessages.entries()) {
    const grown = [...conversation, message];
    const start = performance.now();
    sink += estimator.countMessages(grown);
    const elapsed = performance.now() - start;
    if (index >= 500) warmTimes.push(elapsed);
  }
  if (sink < 0) console.log(sink);

  const cold = median(coldTimes);
  const warm = median(warmTimes);
  console.log(
    `Conversation: ${conversation.length} messages, ${(characters / 1e6).toFixed(2)} M characters of content (images as base64), ≈${tokens.toLocaleString('en-US')} estimated tokens.\n`,
  );
  printTable([
    ['measure', 'time', 'goal', 'result'],
    ['cold count (fresh estimator, 500 messages), median of 7', `${cold.toFixed(2)} ms`, '', ''],
    [
      'warm re-count after appending 1 message, median of 2,500',
      `${(warm * 1000).toFixed(1)} µs`,
      `≤${WARM_GOAL_MILLISECONDS * 1000} µs`,
      verdict(warm <= WARM_GOAL_MILLISECONDS),
    ],
    ['cold / warm', `${(cold / warm).toFixed(0)}×`, '', ''],
  ]);
}

if (isMainModule(import.meta.url)) await run();
