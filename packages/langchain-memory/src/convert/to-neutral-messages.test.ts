import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { compactMessages, extractiveSummarizer, type ImagePart, type ToolResultPart } from '@spillway/core';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { fromNeutralMessages } from './from-neutral-messages';
import { toNeutralMessages } from './to-neutral-messages';

// A 1x1 PNG.
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

describe('toNeutralMessages', () => {
  test('roles, text and tool calls with their ids', () => {
    const [system, user, assistant, result] = toNeutralMessages([
      new SystemMessage('Be brief.'),
      new HumanMessage('Read a.txt'),
      new AIMessage({
        content: 'Reading.',
        tool_calls: [{ id: 'c1', name: 'read', args: { path: 'a.txt' } }],
      }),
      new ToolMessage({ tool_call_id: 'c1', content: 'hello', status: 'error' }),
    ]);
    expect(system).toMatchObject({ role: 'system', content: 'Be brief.' });
    expect(user).toMatchObject({ role: 'user', content: 'Read a.txt' });
    expect(assistant!.content).toEqual([
      { type: 'text', text: 'Reading.' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'read', input: { path: 'a.txt' } },
    ]);
    // The tool name comes from the call when the ToolMessage has none; status error marks the result.
    expect(result!.content).toEqual([
      { type: 'tool-result', toolCallId: 'c1', toolName: 'read', content: 'hello', isError: true },
    ]);
  });

  test('the four image block forms become image parts', () => {
    const [message] = toNeutralMessages([
      new HumanMessage({
        content: [
          { type: 'image', data: PNG, mimeType: 'image/png' },
          { type: 'image', url: 'https://example.com/a.png' },
          { type: 'image', fileId: 'file-123', mimeType: 'image/jpeg' },
          { type: 'image', source_type: 'base64', data: PNG, mime_type: 'image/png' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}`, detail: 'low' } },
          { type: 'image_url', image_url: 'https://example.com/b.jpg' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
          { type: 'image', source: { type: 'url', url: 'https://example.com/c.png' } },
        ] as never,
      }),
    ]);
    const parts = message!.content as ImagePart[];
    expect(parts.map((part) => part.type)).toEqual(Array(8).fill('image'));
    expect(parts[0]).toEqual({ type: 'image', data: PNG, mediaType: 'image/png' });
    expect(parts[1]).toEqual({ type: 'image', url: 'https://example.com/a.png' });
    expect(parts[2]).toEqual({ type: 'image', mediaType: 'image/jpeg' });
    expect(parts[3]).toEqual({ type: 'image', data: PNG, mediaType: 'image/png' });
    expect(parts[4]).toEqual({
      type: 'image',
      url: `data:image/png;base64,${PNG}`,
      mediaType: 'image/png',
      detail: 'low',
    });
    expect(parts[5]).toEqual({ type: 'image', url: 'https://example.com/b.jpg' });
    expect(parts[6]).toEqual({ type: 'image', data: PNG, mediaType: 'image/png' });
    expect(parts[7]).toEqual({ type: 'image', url: 'https://example.com/c.png' });
  });

  test('unknown blocks are carried as opaque parts and come back as the same objects', () => {
    const block = { type: 'custom_thing', payload: { a: 1 } };
    const thinking = { type: 'thinking', thinking: 'hmm', signature: 'sig' };
    const original = new AIMessage({ content: [thinking, block] as never });
    const [neutral] = toNeutralMessages([original]);
    expect(neutral!.content).toEqual([
      { type: 'opaque', value: thinking, text: 'hmm' },
      { type: 'opaque', value: block },
    ]);
    expect(fromNeutralMessages([neutral!])[0]).toBe(original);
  });

  test('tool calls without ids are paired with the id-less tool messages that answer them', () => {
    const conversation = () => [
      new HumanMessage('go'),
      new AIMessage({
        content: '',
        tool_calls: [
          { name: 'a', args: {} },
          { name: 'b', args: {} },
        ],
      }),
      new ToolMessage({ tool_call_id: '', name: 'b', content: 'B' }),
      new ToolMessage({ tool_call_id: '', name: 'a', content: 'A' }),
    ];
    const neutral = toNeutralMessages(conversation());
    const calls = (neutral[1]!.content as unknown as { toolCallId: string; toolName: string }[]).map(
      (call) => `${call.toolName}:${call.toolCallId}`,
    );
    const results = neutral.slice(2).map((message) => {
      const part = (message.content as ToolResultPart[])[0]!;
      return `${part.toolName}:${part.toolCallId}`;
    });
    expect(results).toEqual([calls[1], calls[0]]);
    // Positions count conversation messages only: a system prompt in front changes no id (the
    // summary's hash depends on them).
    const withSystem = toNeutralMessages([new SystemMessage('s'), ...conversation()]).slice(1);
    expect(withSystem.map((message) => message.content)).toEqual(neutral.map((message) => message.content));
  });

  test('ToolMessage content blocks: a shortened result keeps id, status, artifact and the untouched blocks', async () => {
    const image = { type: 'image', data: PNG, mimeType: 'image/png' };
    const artifact = { rows: 5000 };
    const tool = new ToolMessage({
      id: 'm3',
      tool_call_id: 'c1',
      name: 'query',
      status: 'success',
      artifact,
      content: [{ type: 'text', text: 'row\n'.repeat(20_000) }, image] as never,
    });
    const messages = [
      new HumanMessage('query it'),
      new AIMessage({ content: '', tool_calls: [{ id: 'c1', name: 'query', args: {} }] }),
      tool,
    ];
    const result = await compactMessages(toNeutralMessages(messages), { summarizer: extractiveSummarizer });
    const [user, assistant, shortened] = fromNeutralMessages(result.messages);
    expect(user).toBe(messages[0]);
    expect(assistant).toBe(messages[1]);
    expect(shortened).not.toBe(tool);
    expect(ToolMessage.isInstance(shortened!)).toBe(true);
    const copy = shortened as ToolMessage;
    expect(copy).toMatchObject({ id: 'm3', tool_call_id: 'c1', name: 'query', status: 'success', artifact });
    const blocks = copy.content as { type: string; text?: string }[];
    expect(blocks[0]!.text!.length).toBeLessThan(31_000);
    expect(blocks[0]!.text).toContain('content truncated');
    expect(blocks[1]).toBe(image);
    // The original is untouched.
    expect((tool.content as { text: string }[])[0]!.text).toHaveLength(80_000);
  });

  test('property: converting and converting back without changes returns the same objects', () => {
    const message = fc.oneof(
      fc.string().map((text) => new HumanMessage(text)),
      fc.string().map((text) => new AIMessage(text)),
      fc.string().map((text) => new SystemMessage(text)),
      fc
        .tuple(fc.string(), fc.string({ minLength: 1 }))
        .map(
          ([text, id]) => new ToolMessage({ tool_call_id: id, content: [{ type: 'text', text }] as never }),
        ),
    );
    fc.assert(
      fc.property(fc.array(message, { maxLength: 20 }), (messages) => {
        const back = fromNeutralMessages(toNeutralMessages(messages));
        return back.length === messages.length && back.every((item, index) => item === messages[index]);
      }),
    );
  });
});
