import { estimateTokens } from '@spillway/core';
import { describe, expect, it } from 'vitest';
import type { ToolBudget } from '../options/truncation-options';
import { readResultPage } from '../paging/read-result-tool';
import { ResultStore } from '../paging/result-store';
import { AjvJsonSchemaValidator, type CallToolResult } from '../sdk/mcp-sdk';
import { truncateCallToolResult } from './truncate-call-tool-result';

const budget: ToolBudget = {
  maxResultTokens: 1000,
  maxMediaBytes: 1000,
  headRatio: 0.5,
  mediaPolicy: 'placeholder',
};

/** A base64 PNG of the given size whose header says 640x480. */
function png(bytes: number): string {
  const data = Buffer.alloc(bytes);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]).copy(
    data,
    0,
  );
  data.writeUInt32BE(640, 16);
  data.writeUInt32BE(480, 20);
  return data.toString('base64');
}

const longText = (lines: number, label = 'row') =>
  Array.from({ length: lines }, (_, index) => `${label} ${index} some words here`).join('\n');

describe('truncateCallToolResult', () => {
  it('returns the same object when everything fits', () => {
    const result: CallToolResult = { content: [{ type: 'text', text: 'fine' }], structuredContent: { a: 1 } };
    expect(truncateCallToolResult(result, { budget }).result).toBe(result);
  });

  it('shares the token budget between text blocks, the larger giving up more', () => {
    const small = longText(20, 'small');
    const result: CallToolResult = {
      content: [
        { type: 'text', text: small },
        { type: 'text', text: longText(3000, 'large') },
        {
          type: 'resource',
          resource: { uri: 'file:///x.txt', mimeType: 'text/plain', text: longText(1500, 'medium') },
        },
      ],
    };
    const { result: output } = truncateCallToolResult(result, { budget });
    const [first, second, third] = output.content as Array<{
      type: string;
      text?: string;
      resource?: { text: string; uri: string };
    }>;
    expect(first?.text).toBe(small);
    const secondText = second?.text ?? '';
    const thirdText = third?.resource?.text ?? '';
    expect(third?.resource?.uri).toBe('file:///x.txt');
    expect(
      estimateTokens(small) + estimateTokens(secondText) + estimateTokens(thirdText),
    ).toBeLessThanOrEqual(1000);
    expect(secondText).toMatch(/\[spillway-mcp: cut \d+ of \d+ characters/);
    expect(thirdText).toMatch(/\[spillway-mcp: cut \d+ of \d+ characters/);
    expect(result.content[1]).toEqual({ type: 'text', text: longText(3000, 'large') }); // input untouched
  });

  it('replaces media beyond the byte budget with placeholders and keeps the ones within it', () => {
    const result: CallToolResult = {
      content: [
        { type: 'image', data: png(600), mimeType: 'image/png' },
        { type: 'image', data: png(600), mimeType: 'image/png' },
        { type: 'audio', data: Buffer.alloc(5000).toString('base64'), mimeType: 'audio/wav' },
        {
          type: 'resource',
          resource: {
            uri: 'file:///a.bin',
            mimeType: 'application/octet-stream',
            blob: Buffer.alloc(4000).toString('base64'),
          },
        },
      ],
    };
    const { result: output } = truncateCallToolResult(result, { budget });
    const blocks = output.content as Array<{ type: string; text?: string; data?: string }>;
    expect(blocks[0]).toBe(result.content[0]);
    expect(blocks[1]?.text).toMatch(/^\[image: image\/png, 640x480, 600 B\] \(not shown/);
    expect(blocks[2]?.text).toMatch(/^\[audio: audio\/wav, 5 KB\] \(not shown/);
    expect(blocks[3]?.text).toMatch(/^\[resource: file:\/\/\/a\.bin, application\/octet-stream, 4 KB\]/);
  });

  it('keeps all media with the keep policy', () => {
    const result: CallToolResult = { content: [{ type: 'image', data: png(5000), mimeType: 'image/png' }] };
    expect(truncateCallToolResult(result, { budget: { ...budget, mediaPolicy: 'keep' } }).result).toBe(
      result,
    );
  });

  it('pages give back exactly the original text, surrogate pairs included', () => {
    const store = new ResultStore();
    const original = Array.from({ length: 4000 }, (_, index) => `𝒳 line ${index} 😀`).join('\n');
    const { result } = truncateCallToolResult(
      { content: [{ type: 'text', text: original }] },
      { budget, store },
    );
    const text = (result.content[0] as { text: string }).text;
    const [, id, offset] = /\{"id":"(r[0-9a-f]+)","offset":(\d+)\}/.exec(text) as unknown as [
      string,
      string,
      string,
    ];
    expect(original.startsWith(text.slice(0, Number(offset)))).toBe(true);
    let joined = '';
    let next = 0;
    for (let page = 0; page < 1000; page++) {
      const read = readResultPage({ store, input: { id, offset: next }, maxTokens: 1000 });
      const [body, where] = read.content as Array<{ text: string }>;
      expect(estimateTokens(body?.text ?? '')).toBeLessThanOrEqual(1000);
      joined += body?.text ?? '';
      const match = /"offset":(\d+)\}\]$/.exec(where?.text ?? '');
      if (match === null) break;
      next = Number(match[1]);
    }
    expect(joined).toBe(original);
  });

  it('shortens structuredContent to the budget and keeps it valid against the schema', () => {
    const schema = {
      type: 'object',
      properties: {
        items: {
          type: 'array',
          items: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        },
      },
      required: ['items'],
    };
    const validator = new AjvJsonSchemaValidator().getValidator(schema as never);
    const structuredContent = {
      items: Array.from({ length: 2000 }, (_, index) => ({ name: `item ${index} ${'x'.repeat(50)}` })),
    };
    const { result, structuredContentDropped } = truncateCallToolResult(
      { content: [], structuredContent },
      { budget, validateStructuredContent: (value) => validator(value).valid },
    );
    expect(structuredContentDropped).toBe(false);
    expect(validator(result.structuredContent).valid).toBe(true);
    expect(estimateTokens(JSON.stringify(result.structuredContent))).toBeLessThanOrEqual(1000);
    expect((result.structuredContent as { spillway_note?: string }).spillway_note).toMatch(
      /\$\.items: kept \d+ of 2000 items/,
    );
  });

  it('drops structuredContent that cannot stay valid, and gives its JSON as pageable text', () => {
    const schema = {
      type: 'object',
      properties: { items: { type: 'array', minItems: 2000 } },
      additionalProperties: false,
    };
    const validator = new AjvJsonSchemaValidator().getValidator(schema as never);
    const structuredContent = { items: Array.from({ length: 2000 }, (_, index) => `value ${index}`) };
    const store = new ResultStore();
    const { result, structuredContentDropped } = truncateCallToolResult(
      { content: [], structuredContent },
      { budget, store, validateStructuredContent: (value) => validator(value).valid },
    );
    expect(structuredContentDropped).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect((result.content[0] as { text: string }).text).toMatch(/^\{"items":\["value 0"/);
    expect((result.content[0] as { text: string }).text).toMatch(/spillway_read_result/);
  });
});
