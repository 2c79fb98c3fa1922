// Results long enough that the proxy reads their text in pieces (lines over 1 MiB): what reaches the
// client is the same as for a short result, whatever the transport, whether the text is cut or not.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createProxy,
  DEFAULT_HEAD_RATIO,
  DEFAULT_MAX_MEDIA_BYTES,
  DEFAULT_MAX_RESULT_TOKENS,
  type McpProxy,
  RecallStore,
} from '../../src/index';
import { truncateCallToolResult } from '../../src/truncate/truncate-call-tool-result';
import { cleanUp, connectThroughProxy, fixtureServer } from './helpers';

/** The fixture server's `big` text (numbered prose lines), `chars` characters long. */
function bigText(chars: number): string {
  const line = (index: number) =>
    `line ${index}: the quick brown fox jumps over the lazy dog, again and again\n`;
  const sample = Array.from({ length: 1000 }, (_, index) => line(index)).join('');
  return sample.repeat(Math.ceil(chars / sample.length)).slice(0, chars);
}

type TextBlock = { type: string; text: string };
/** Over the 1 MiB from which the proxy reads a line in pieces. */
const LONG = 1_500_000;
const expected = bigText(LONG);

/** Reads `ref` from `offset` through `spillway_recall`, `pages` pages at most. */
async function readBack(client: Client, ref: string, offset: number, pages: number): Promise<string> {
  let text = '';
  let next: number | undefined = offset;
  for (let page = 0; page < pages && next !== undefined; page++) {
    const result = await client.callTool({ name: 'spillway_recall', arguments: { ref, offset: next } });
    const [, body, footer] = result.content as TextBlock[];
    text += body?.text ?? '';
    const match = /"offset":(\d+)/.exec(footer?.text ?? '');
    next = match === null ? undefined : Number(match[1]);
  }
  return text;
}

/** The ref and offset the marker of a cut text names. */
function markerCall(text: string): { ref: string; offset: number } {
  const match = /\{"ref":"([\w-]+)","offset":(\d+)\}/.exec(text);
  expect(match).not.toBeNull();
  return { ref: (match as RegExpExecArray)[1] as string, offset: Number((match as RegExpExecArray)[2]) };
}

let proxy: McpProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
  await cleanUp();
});

describe('results read in pieces', () => {
  it('reach a client on an in-memory transport as plain strings when not cut', async () => {
    proxy = createProxy({
      upstream: { command: process.execPath, args: [fixtureServer] },
      tools: { big: { maxResultTokens: Number.POSITIVE_INFINITY } },
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await proxy.connect(serverSide);
    const client = new Client({ name: 'large-results', version: '1.0.0' });
    await client.connect(clientSide);
    const result = await client.callTool({ name: 'big', arguments: { chars: LONG } });
    const [block] = result.content as TextBlock[];
    expect(typeof block?.text).toBe('string');
    expect(block?.text === expected).toBe(true);
    await client.close();
  });

  it('reach a stdio client whole when not cut, and cut to the budget with exact pages otherwise', async () => {
    const { client } = await connectThroughProxy({
      proxyArgs: ['--tool', 'big=off', '--max-tokens', '2000'],
      upstream: [process.execPath, fixtureServer],
    });
    const whole = await client.callTool({ name: 'big', arguments: { chars: LONG } });
    expect((whole.content as TextBlock[])[0]?.text === expected).toBe(true);

    const resource = await client.readResource({ uri: `fixture://text/${LONG}` });
    const [contents] = resource.contents as Array<{ text: string }>;
    expect(contents?.text.length).toBeLessThan(12_000);
    const { ref, offset } = markerCall(contents?.text ?? '');
    expect(contents?.text.startsWith(expected.slice(0, offset))).toBe(true);
    const pages = await readBack(client, ref, offset, 3);
    expect(pages.length).toBeGreaterThan(5_000);
    expect(pages === expected.slice(offset, offset + pages.length)).toBe(true);
    // The last line, found by search, reads back from where the search says it starts.
    const search = await client.callTool({
      name: 'spillway_recall',
      arguments: { ref, search: 'line 999: the quick' },
    });
    const found = /\{"ref":"[\w-]+","offset":(\d+)\}/.exec((search.content as TextBlock[])[0]?.text ?? '');
    expect(found).not.toBeNull();
    expect(expected.startsWith('line 999: the quick', Number(found?.[1]))).toBe(true);

    const prompt = await client.getPrompt({
      name: 'big-prompt',
      arguments: { chars: String(LONG), imageBytes: '100' },
    });
    const [user, image, assistant] = prompt.messages;
    expect(user?.role).toBe('user');
    const cut = (user?.content as TextBlock | undefined)?.text ?? '';
    expect(cut.length).toBeLessThan(12_000);
    expect(cut.endsWith(expected.slice(-100))).toBe(true);
    const marker = markerCall(cut);
    const first = await readBack(client, marker.ref, 0, 1);
    expect(first === expected.slice(0, first.length)).toBe(true);
    expect(image?.content.type).toBe('image');
    expect(assistant?.content).toEqual({ type: 'text', text: 'I have read it.' });
  });
});

/** A store whose every text gets `ref`: the reference cut then carries the proxy's own ref. */
class SameRefStore extends RecallStore {
  constructor(private readonly ref: string) {
    super();
  }
  override put(...args: Parameters<RecallStore['put']>): string | undefined {
    return super.put(...args) === undefined ? undefined : this.ref;
  }
}

/**
 * What the proxy sends for a text block `text` when the result arrives as one short line, with the
 * recall ref the proxy's answer `received` carries. The ref is random and its characters count in
 * the marker's token estimate, which moves the cut: the same ref makes the comparison exact.
 */
function cutInOneLine(text: string, received: unknown): string {
  const { ref } = markerCall((received as TextBlock[])[0]?.text ?? '');
  const { result } = truncateCallToolResult(
    { content: [{ type: 'text', text }] },
    {
      budget: {
        maxResultTokens: DEFAULT_MAX_RESULT_TOKENS,
        maxMediaBytes: DEFAULT_MAX_MEDIA_BYTES,
        headRatio: DEFAULT_HEAD_RATIO,
        mediaPolicy: 'placeholder',
      },
      recall: { store: new SameRefStore(ref), owner: 'reference' },
    },
  );
  return JSON.stringify(result.content);
}

describe('a result read in pieces is cut', () => {
  it('to the same characters as the same text parsed from one line, escapes and all', async () => {
    const { client } = await connectThroughProxy({ upstream: [process.execPath, fixtureServer] });
    const prose = await client.callTool({ name: 'big', arguments: { chars: LONG } });
    expect(JSON.stringify(prose.content)).toBe(cutInOneLine(expected, prose.content));
    // `echo` answers JSON.stringify(value): quotes and backslashes escaped twice on the wire, plus
    // tabs, control characters, accents, and surrogate pairs (some across the upstream's pipe chunks).
    const line = (index: number) => `${index}\t"quoted" \\ back\u0001slash é 😀 ${'x'.repeat(index % 50)}\n`;
    const value = Array.from({ length: 30_000 }, (_, index) => line(index)).join('');
    expect(value.length).toBeGreaterThan(LONG);
    const escaped = await client.callTool({ name: 'echo', arguments: { value } });
    expect(JSON.stringify(escaped.content)).toBe(cutInOneLine(JSON.stringify(value), escaped.content));
  });
});
