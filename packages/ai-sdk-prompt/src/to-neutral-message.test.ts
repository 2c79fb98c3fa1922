import { compactMessages, isProviderCompaction, type Message } from '@spillway/core';
import { describe, expect, it } from 'vitest';
import { fromNeutralMessages } from './from-neutral-messages';
import type { PromptVersion, SdkMessage, SdkPart } from './sdk-prompt';
import { toNeutralMessage } from './to-neutral-message';

// The shapes `@ai-sdk/anthropic` and `@ai-sdk/openai` (responses) read back from a prompt: an
// Anthropic compaction block is a text part whose provider options say `type: 'compaction'`; an
// OpenAI compaction item is a `custom` part of kind `openai.compaction` with its encrypted state.
const anthropicBlock = (text: string): SdkPart => ({
  type: 'text',
  text,
  providerOptions: { anthropic: { type: 'compaction', signature: 'sig-1' } },
});
const openaiItem = (id: string): SdkPart => ({
  type: 'custom',
  kind: 'openai.compaction',
  providerOptions: { openai: { type: 'compaction', itemId: id, encryptedContent: `gAAAA${id.repeat(40)}` } },
});

function session(block: SdkPart, turns: number): SdkMessage[] {
  const prompt: SdkMessage[] = [{ role: 'system', content: 'You are a coding agent.' }];
  for (let turn = 0; turn < turns; turn++) {
    if (turn === Math.floor(turns / 2)) {
      prompt.push({
        role: 'assistant',
        content: [block, { type: 'text', text: 'Picking up from the summary.' }],
      });
    }
    prompt.push({ role: 'user', content: [{ type: 'text', text: `Turn ${turn}: check file${turn}.ts` }] });
    prompt.push({
      role: 'assistant',
      content: [
        {
          type: 'tool-call',
          toolCallId: `c${turn}`,
          toolName: 'read_file',
          input: { path: `file${turn}.ts` },
        },
      ],
    });
    prompt.push({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: `c${turn}`,
          toolName: 'read_file',
          output: { type: 'text', value: `export const v${turn} = ${turn};\n`.repeat(120) },
        },
      ],
    });
    prompt.push({ role: 'assistant', content: [{ type: 'text', text: `file${turn}.ts is fine.` }] });
  }
  return prompt;
}

const cases: Array<[string, PromptVersion, SdkPart]> = [
  ['anthropic block, v2', 'v2', anthropicBlock('Summary of the first turns.')],
  ['anthropic block, v3', 'v3', anthropicBlock('Summary of the first turns.')],
  ['anthropic block, v4', 'v4', anthropicBlock('Summary of the first turns.')],
  ['openai item, v4', 'v4', openaiItem('cmp_1')],
];

describe('provider compaction parts', () => {
  it.each(cases)('%s: marked provider-managed, counted by its text', (_name, _version, block) => {
    const neutral = toNeutralMessage({ role: 'assistant', content: [block] });
    const part = (neutral.content as Message['content'] & object[])[0] as Message['content'][number];
    expect(isProviderCompaction(part as never)).toBe(true);
    if (block.type === 'text') expect((part as { text?: string }).text).toBe(block.text);
  });

  it('a plain text part with other provider options stays text', () => {
    const neutral = toNeutralMessage({
      role: 'assistant',
      content: [{ type: 'text', text: 'hi', providerOptions: { anthropic: { citations: [] } } }],
    });
    expect((neutral.content as Array<{ type: string }>)[0]!.type).toBe('text');
  });

  it.each(cases)(
    '%s: round-trips byte-identically and in place through a compaction',
    async (_n, version, block) => {
      const prompt = session(block, 24);
      const json = JSON.stringify(prompt);
      const neutral = prompt.map(toNeutralMessage);
      const result = await compactMessages(neutral, { contextWindow: 8_000 });
      expect(result.actions.length).toBeGreaterThan(0);
      const back = fromNeutralMessages(result.messages, { version });
      expect(JSON.stringify(prompt)).toBe(json);
      const blockAt = prompt.findIndex(
        (message) => Array.isArray(message.content) && message.content[0] === block,
      );
      // Everything up to the block: the very same objects, in order, right after the system prompt.
      expect(back.slice(1, blockAt + 1)).toEqual(prompt.slice(1, blockAt + 1));
      for (let index = 1; index <= blockAt; index++) expect(back[index]).toBe(prompt[index]);
      expect(
        back
          .flatMap((message) => (Array.isArray(message.content) ? message.content : []))
          .filter((p) => p === block),
      ).toHaveLength(1);
    },
  );

  it('a rebuilt message keeps the block object as it was', () => {
    const block = openaiItem('cmp_2');
    const neutral = toNeutralMessage({ role: 'assistant', content: [block, { type: 'text', text: 'x' }] });
    const edited: Message = {
      role: 'assistant',
      content: [(neutral.content as never[])[0]!, { type: 'text', text: 'y' }],
    };
    const [rebuilt] = fromNeutralMessages([edited], { version: 'v4' });
    expect((rebuilt!.content as SdkPart[])[0]).toBe(block);
  });
});
