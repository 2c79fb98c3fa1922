/** Builders for long agent conversations in AI SDK `ModelMessage` form (ai 6 and ai 7 alike). */
import type { Sdk } from './sdk';

/** A PNG of `width`×`height` (a real header; the rest is filler), `bytes` long. */
export function screenshotPng(width: number, height: number, bytes = 60_000, seed = 0): Uint8Array {
  const data = new Uint8Array(bytes);
  data.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  const view = new DataView(data.buffer);
  view.setUint32(16, width);
  view.setUint32(20, height);
  data.set([8, 2, 0, 0, 0], 24);
  for (let index = 40; index < bytes; index++) data[index] = (index * 31 + seed * 7) & 0xff;
  return data;
}

/** Base64 of bytes. */
export function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64');
}

/** A source file of about `chars` characters. */
export function sourceFile(path: string, chars: number): string {
  const lines: string[] = [];
  let length = 0;
  for (let line = 1; length < chars; line++) {
    const text = `export function handler${line}(input: Request): Response { return route(input, '${path}', ${line}); }`;
    lines.push(text);
    length += text.length + 1;
  }
  return lines.join('\n');
}

/** A web page of about `chars` characters. */
export function webPage(chars: number): string {
  const paragraphs: string[] = ['<html><head><title>Release notes</title></head><body>'];
  let length = 0;
  for (let index = 0; length < chars; index++) {
    const text = `<p>Section ${index}: the deployment pipeline changed in version 2.${index}; see https://example.com/notes/${index} for details.</p>`;
    paragraphs.push(text);
    length += text.length;
  }
  return `${paragraphs.join('\n')}</body></html>`;
}

/** One turn of an agent session: the user asks, the assistant calls a tool, the tool answers. */
export function agentTurn(sdk: Sdk, turn: number): unknown[] {
  const id = `call-${turn}`;
  const kind = turn % 4;
  const user = {
    role: 'user',
    content: `Turn ${turn}: please look at src/module-${turn}.ts and keep going.`,
  };
  if (kind === 3) {
    const png = toBase64(screenshotPng(1280, 800, 40_000, turn));
    const output =
      sdk.version === 'v3'
        ? {
            type: 'content',
            value: [
              { type: 'text', text: `Screenshot ${turn}` },
              { type: 'image-data', data: png, mediaType: 'image/png' },
            ],
          }
        : {
            type: 'content',
            value: [
              { type: 'text', text: `Screenshot ${turn}` },
              { type: 'file', mediaType: 'image/png', data: { type: 'data', data: png } },
            ],
          };
    return [
      user,
      {
        role: 'assistant',
        content: [
          {
            type: 'tool-call',
            toolCallId: id,
            toolName: 'screenshot',
            input: { url: `https://app.local/${turn}` },
          },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: id, toolName: 'screenshot', output }] },
    ];
  }
  const [toolName, input, value] =
    kind === 2
      ? [
          'fetch_page',
          { url: `https://docs.example.com/page-${turn}` },
          webPage(turn % 8 === 2 ? 200_000 : 12_000),
        ]
      : ['read_file', { path: `src/module-${turn}.ts` }, sourceFile(`src/module-${turn}.ts`, 9_000)];
  return [
    user,
    { role: 'assistant', content: [{ type: 'tool-call', toolCallId: id, toolName, input }] },
    {
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: id, toolName, output: { type: 'text', value } }],
    },
  ];
}

/**
 * One turn of a plain chat: a question and a long answer, no tools. The reductions that need no
 * model cannot shrink it: only a summary (or a drop) makes room.
 */
export function chatTurn(turn: number): unknown[] {
  return [
    {
      role: 'user',
      content: `Turn ${turn}: question about order ORD-${1000 + turn} and src/module-${turn}.ts. ${'More context on the question. '.repeat(12)}`,
    },
    {
      role: 'assistant',
      content: `Answer ${turn}: ${'The explanation goes on with the relevant details. '.repeat(30)}`,
    },
  ];
}
