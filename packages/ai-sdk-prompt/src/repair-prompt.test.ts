import { CONTINUATION_TEXT } from '@spillway/core';
import { describe, expect, it } from 'vitest';
import { repairPrompt } from './repair-prompt';
import type { SdkMessage } from './sdk-prompt';

const call = (id: string): SdkMessage => ({
  role: 'assistant',
  content: [{ type: 'tool-call', toolCallId: id, toolName: 't', input: {} }],
});
const result = (...ids: string[]): SdkMessage => ({
  role: 'tool',
  content: ids.map((id) => ({
    type: 'tool-result',
    toolCallId: id,
    toolName: 't',
    output: { type: 'text', value: id },
  })),
});

describe('repairPrompt', () => {
  it('removes results whose call it left out, and the message they leave empty', () => {
    const original = [
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      call('a'),
      result('a'),
      call('b'),
      result('b'),
    ];
    const compacted = [original[0]!, result('a'), call('b'), result('b')];
    const repaired = repairPrompt(compacted, original);
    expect(repaired).toEqual([original[0], call('b'), result('b')]);
  });

  it('leaves results alone whose call was never in the history (the application’s own input)', () => {
    const original = [{ role: 'user', content: [{ type: 'text', text: 'go' }] }, result('orphan')];
    const compacted = [...original];
    expect(repairPrompt(compacted, original)).toBe(compacted);
  });

  it('starts the conversation with a user turn when the original did', () => {
    const original = [
      { role: 'system', content: 's' },
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      call('a'),
      result('a'),
    ];
    const compacted: SdkMessage[] = [
      { role: 'system', content: 'summary' },
      original[0]!,
      call('a'),
      result('a'),
    ];
    const repaired = repairPrompt(compacted, original);
    expect(repaired[2]).toEqual({ role: 'user', content: [{ type: 'text', text: CONTINUATION_TEXT }] });
    expect(repaired).toHaveLength(5);
  });

  it('sends a user message it made (the drop note) as the first parts of the user message after it', () => {
    const question = { role: 'user', content: [{ type: 'text', text: 'What next?' }] };
    const original = [{ role: 'user', content: [{ type: 'text', text: 'old' }] }, question];
    const note: SdkMessage = {
      role: 'user',
      content: [{ type: 'text', text: '[System: 1 older messages were truncated]' }],
    };
    const repaired = repairPrompt([note, question], original);
    expect(repaired).toEqual([
      {
        role: 'user',
        content: [{ type: 'text', text: '[System: 1 older messages were truncated]' }, question.content[0]],
      },
    ]);
    // Two user messages of the application's own are left as they are.
    const own = [...original];
    expect(repairPrompt(own, original)).toBe(own);
  });
});
