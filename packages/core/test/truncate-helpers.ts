/**
 * Test support for the truncate stage (imported by `*.test.ts` only, never by the library): a tiny
 * estimator, generated conversations and the invariants every message-list function must keep.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import type { Estimator } from '../src/estimate/estimator';
import type {
  FilePart,
  ImagePart,
  Message,
  MessagePart,
  OpaquePart,
  TextPart,
  ToolCallPart,
  ToolResultContentPart,
  ToolResultPart,
} from '../src/message/message';
import type { TruncationRecord } from '../src/truncate/truncation-record';

/** An `Estimator` counting ceil(chars / 4) per text, with call counters. */
export function createTestEstimator(): Estimator & {
  calls: { countMessages: number; countMessage: number };
} {
  const memo = new WeakMap<Message, number>();
  const calls = { countMessages: 0, countMessage: 0 };
  const countText = (text: string): number => Math.ceil(text.length / 4);
  const countPart = (part: MessagePart | ToolResultContentPart): number => {
    switch (part.type) {
      case 'text':
      case 'reasoning':
        return countText(part.text);
      case 'image':
        return 100;
      case 'file':
        return typeof part.data === 'string' ? countText(part.data) : 100;
      case 'tool-call':
        return countText(part.toolName + JSON.stringify(part.input ?? null));
      case 'tool-result':
        return (
          countText(part.toolName) +
          (typeof part.content === 'string'
            ? countText(part.content)
            : part.content.reduce((sum, item) => sum + countPart(item), 0))
        );
      case 'opaque':
        return countText(part.text ?? '');
    }
  };
  const countUncached = (message: Message): number =>
    4 +
    (typeof message.content === 'string'
      ? countText(message.content)
      : message.content.reduce((sum, part) => sum + countPart(part), 0));
  const estimator = {
    calls,
    countText,
    countPart,
    countMessage(message: Message): number {
      calls.countMessage++;
      let count = memo.get(message);
      if (count === undefined) {
        count = countUncached(message);
        memo.set(message, count);
      }
      return count;
    },
    countMessages(messages: readonly Message[]): number {
      calls.countMessages++;
      let total = 0;
      for (const message of messages) {
        const count = memo.get(message) ?? countUncached(message);
        memo.set(message, count);
        total += count;
      }
      return total;
    },
    calibrated: (tokenCount: number) => tokenCount,
    calibrate: () => {},
    calibrationFactor: () => 1,
  };
  return estimator;
}

/** Freezes a value and everything reachable from it (typed arrays cannot be frozen and are skipped). */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !ArrayBuffer.isView(value) && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

/** Lone (unpaired) surrogates in a string. */
export function hasLoneSurrogate(text: string): boolean {
  return /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);
}

/** Bytes of a real PNG header: signature and IHDR chunk (CRC not checked by readers). */
export function pngHeader(width: number, height: number): Uint8Array {
  const bytes = new Uint8Array(33);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 0);
  const view = new DataView(bytes.buffer);
  view.setUint32(8, 13);
  bytes.set([0x49, 0x48, 0x44, 0x52], 12); // IHDR
  view.setUint32(16, width);
  view.setUint32(20, height);
  bytes.set([8, 6, 0, 0, 0], 24);
  return bytes;
}

/**
 * Bytes of a real baseline JPEG header: SOI, an APP0 (JFIF) segment, optionally an APP1 segment of
 * `paddingBytes` (EXIF-like metadata that pushes the size far from the start), then SOF0 with the size.
 */
export function jpegHeader(width: number, height: number, paddingBytes = 0): Uint8Array {
  const parts: number[] = [0xff, 0xd8];
  parts.push(
    0xff,
    0xe0,
    0x00,
    0x10,
    0x4a,
    0x46,
    0x49,
    0x46,
    0x00,
    0x01,
    0x01,
    0x00,
    0x00,
    0x01,
    0x00,
    0x01,
    0,
    0,
  );
  if (paddingBytes > 0) {
    const length = paddingBytes + 2;
    parts.push(0xff, 0xe1, (length >> 8) & 0xff, length & 0xff);
    for (let index = 0; index < paddingBytes; index++) parts.push(0x41);
  }
  parts.push(
    0xff,
    0xc0,
    0x00,
    0x11,
    0x08,
    (height >> 8) & 0xff,
    height & 0xff,
    (width >> 8) & 0xff,
    width & 0xff,
  );
  parts.push(0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01);
  parts.push(0xff, 0xda);
  return Uint8Array.from(parts);
}

/** Base64 of bytes, without Node's Buffer. */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Bytes of `length`, starting with `header`, padded with a fixed filler. */
export function withLength(header: Uint8Array, length: number): Uint8Array {
  const bytes = new Uint8Array(Math.max(length, header.length)).fill(0x5a);
  bytes.set(header, 0);
  return bytes;
}

const toolNames = ['read_file', 'search', 'fetch_url'] as const;
const toolInputs = [{ path: 'src/a.ts' }, { path: 'src/b.ts' }, { query: 'spillway', limit: 3 }, {}];

/** Text with ASCII, line breaks, CJK and emoji (surrogate pairs), sometimes long. */
const textArbitrary = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom('ok', 'done', 'File not found', 'x'.repeat(250)) },
  {
    weight: 5,
    arbitrary: fc.string({
      unit: fc.constantFrom('a', 'b', ' ', '\n', '\r\n', 'é', '中', '😀', '👍🏽', '{"k":1}'),
      maxLength: 800,
    }),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('line of output 😀\n', 'αβγ', 'z'), fc.integer({ min: 100, max: 1_500 }))
      .map(([unit, count]) => unit.repeat(count)),
  },
);

const pngBase64 = toBase64(withLength(pngHeader(640, 480), 300));

/** Images and files in the shapes the model allows: base64, bytes, URLs, with and without metadata. */
export const imageArbitrary: fc.Arbitrary<ImagePart | FilePart> = fc.oneof(
  fc.record(
    {
      type: fc.constant('image' as const),
      data: fc.constantFrom<string | Uint8Array>(
        pngBase64,
        withLength(jpegHeader(800, 600), 200),
        'bm90IGFuIGltYWdl',
      ),
      mediaType: fc.constantFrom('image/png', 'image/jpeg'),
      filename: fc.constantFrom('shot.png', 'photo.jpg'),
      width: fc.constant(1280),
      height: fc.constant(800),
    },
    { requiredKeys: ['type'] },
  ),
  fc.record(
    {
      type: fc.constant('image' as const),
      url: fc.constantFrom('https://example.com/cat.png', `data:image/png;base64,${pngBase64}`),
    },
    { requiredKeys: ['type', 'url'] },
  ),
  fc.record(
    {
      type: fc.constant('file' as const),
      data: fc.constant(pngBase64),
      mediaType: fc.constantFrom('image/png', 'application/pdf'),
      filename: fc.constantFrom('scan.png', 'report.pdf'),
    },
    { requiredKeys: ['type', 'data', 'mediaType'] },
  ),
);

const textPartArbitrary: fc.Arbitrary<TextPart> = textArbitrary.map((text) => ({ type: 'text', text }));
const opaquePartArbitrary: fc.Arbitrary<OpaquePart> = fc.constant({
  type: 'opaque',
  value: { kind: 'provider-item', id: 'item_1' },
  text: 'provider item',
});

const resultContentArbitrary: fc.Arbitrary<string | ToolResultContentPart[]> = fc.oneof(
  { weight: 3, arbitrary: textArbitrary },
  {
    weight: 2,
    arbitrary: fc.array(
      fc.oneof(
        { weight: 4, arbitrary: textPartArbitrary as fc.Arbitrary<ToolResultContentPart> },
        { weight: 1, arbitrary: imageArbitrary },
        { weight: 1, arbitrary: opaquePartArbitrary },
      ),
      { maxLength: 4 },
    ),
  },
);

interface CallSpec {
  toolName: string;
  input: unknown;
  content: string | ToolResultContentPart[];
  isError: boolean | undefined;
}

const callArbitrary: fc.Arbitrary<CallSpec> = fc.record({
  toolName: fc.constantFrom(...toolNames),
  input: fc.constantFrom(...toolInputs),
  content: resultContentArbitrary,
  isError: fc.constantFrom<boolean | undefined>(undefined, true, false),
});

const userPartsArbitrary: fc.Arbitrary<MessagePart[]> = fc.array(
  fc.oneof(textPartArbitrary as fc.Arbitrary<MessagePart>, imageArbitrary),
  { minLength: 1, maxLength: 3 },
);

type Turn =
  | { kind: 'user'; content: string | MessagePart[] }
  | { kind: 'assistant'; text: string }
  | { kind: 'tools'; text?: string; calls: CallSpec[]; oneMessage: boolean };

const turnArbitrary: fc.Arbitrary<Turn> = fc.oneof(
  fc.record({ kind: fc.constant('user' as const), content: fc.oneof(textArbitrary, userPartsArbitrary) }),
  fc.record({ kind: fc.constant('assistant' as const), text: textArbitrary }),
  {
    weight: 3,
    arbitrary: fc.record(
      {
        kind: fc.constant('tools' as const),
        text: fc.constantFrom('Let me look.', 'Checking both.'),
        calls: fc.array(callArbitrary, { minLength: 1, maxLength: 3 }),
        oneMessage: fc.boolean(),
      },
      { requiredKeys: ['kind', 'calls', 'oneMessage'] },
    ),
  },
);

/**
 * Conversations like real ones: an optional system message, user messages (text or parts with
 * images), assistant messages with 1–3 parallel tool calls followed by their results (in one `tool`
 * message or one per result), results as strings or parts, with and without `isError`.
 */
export const conversationArbitrary: fc.Arbitrary<Message[]> = fc
  .tuple(fc.boolean(), fc.array(turnArbitrary, { maxLength: 8 }))
  .map(([withSystem, turns]) => {
    const messages: Message[] = withSystem ? [{ role: 'system', content: 'You are helpful.' }] : [];
    let callCount = 0;
    for (const turn of turns) {
      if (turn.kind === 'user') messages.push({ role: 'user', content: turn.content });
      else if (turn.kind === 'assistant') messages.push({ role: 'assistant', content: turn.text });
      else {
        const ids = turn.calls.map(() => `call_${callCount++}`);
        const callParts: ToolCallPart[] = turn.calls.map((call, index) => ({
          type: 'tool-call',
          toolCallId: ids[index]!,
          toolName: call.toolName,
          input: call.input,
        }));
        messages.push({
          role: 'assistant',
          content: turn.text === undefined ? callParts : [{ type: 'text', text: turn.text }, ...callParts],
        });
        const results: ToolResultPart[] = turn.calls.map((call, index) => ({
          type: 'tool-result',
          toolCallId: ids[index]!,
          toolName: call.toolName,
          content: call.content,
          ...(call.isError === undefined ? {} : { isError: call.isError }),
        }));
        if (turn.oneMessage) messages.push({ role: 'tool', content: results });
        else for (const result of results) messages.push({ role: 'tool', content: [result] });
      }
    }
    return messages;
  });

/** `(messageIndex, partIndex, type, toolCallId)` of every tool call and result: the pairing skeleton. */
function toolSkeleton(messages: readonly Message[]): string[] {
  const skeleton: string[] = [];
  messages.forEach((message, messageIndex) => {
    if (typeof message.content === 'string') return;
    message.content.forEach((part, partIndex) => {
      if (part.type === 'tool-call' || part.type === 'tool-result') {
        skeleton.push(`${messageIndex}/${partIndex}/${part.type}/${part.toolCallId}/${part.toolName}`);
      }
    });
  });
  return skeleton;
}

/**
 * The invariants of every message-list function: same length and roles; unchanged messages (those
 * no record points at) are the same objects, changed ones new objects; inside changed messages,
 * parts are either the same objects or allowed edits (a tool result with the same id, name and
 * `isError`; an image or file turned into a text placeholder); every tool call keeps its result.
 */
export function expectMessageInvariants(
  input: readonly Message[],
  output: readonly Message[],
  records: readonly TruncationRecord[],
): void {
  expect(output).not.toBe(input);
  expect(output.length).toBe(input.length);
  const changed = new Set(records.map((record) => record.messageIndex));
  input.forEach((message, messageIndex) => {
    const result = output[messageIndex]!;
    if (!changed.has(messageIndex)) {
      expect(result).toBe(message);
      return;
    }
    expect(result).not.toBe(message);
    expect(result.role).toBe(message.role);
    expect(Array.isArray(message.content) && Array.isArray(result.content)).toBe(true);
    const before = message.content as readonly MessagePart[];
    const after = result.content as readonly MessagePart[];
    expect(after.length).toBe(before.length);
    before.forEach((part, partIndex) => {
      const edited = after[partIndex]!;
      if (edited === part) return;
      if (part.type === 'image' || part.type === 'file') {
        expect(edited.type).toBe('text');
        return;
      }
      expect(part.type).toBe('tool-result');
      expect(edited.type).toBe('tool-result');
      const original = part as ToolResultPart;
      const shortened = edited as ToolResultPart;
      expect(shortened.toolCallId).toBe(original.toolCallId);
      expect(shortened.toolName).toBe(original.toolName);
      expect('isError' in shortened).toBe('isError' in original);
      expect(shortened.isError).toBe(original.isError);
      if (Array.isArray(original.content) && Array.isArray(shortened.content)) {
        if (original.content.length !== shortened.content.length) return;
        original.content.forEach((inner, innerIndex) => {
          const innerEdited = shortened.content[innerIndex] as ToolResultContentPart;
          if (innerEdited !== inner) expect(innerEdited.type).toBe('text');
        });
      }
    });
  });
  expect(toolSkeleton(output)).toEqual(toolSkeleton(input));
}
