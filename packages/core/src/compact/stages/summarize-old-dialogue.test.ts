import { describe, expect, it } from 'vitest';
import type { Message } from '../../message/message';
import { compactMessages } from '../compact-messages';

/** `turns` finished turns of prose (about `wordsPerTurn` words each side), then a turn in progress. */
function conversation(turns: number, wordsPerTurn: number, inProgressChars: number): Message[] {
  const prose = (turn: number, who: string) =>
    `${who} turn ${turn}: ${'we weighed the options and settled the plan for the service. '.repeat(Math.ceil(wordsPerTurn / 10))}`;
  const messages: Message[] = [{ role: 'system', content: 'You are an agent.' }];
  for (let turn = 0; turn < turns; turn++) {
    messages.push(
      { role: 'user', content: prose(turn, 'user') },
      { role: 'assistant', content: prose(turn, 'assistant') },
    );
  }
  messages.push(
    { role: 'user', content: 'Read the big log and tell me what failed.' },
    {
      role: 'assistant',
      content: [
        { type: 'tool-call', toolCallId: 'big', toolName: 'read_file', input: { path: 'logs/app.log' } },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'big',
          toolName: 'read_file',
          content: `${'2026-11-27T10:00:00Z INFO request served in 12 ms\n'.repeat(Math.ceil(inProgressChars / 50))}`,
        },
      ],
    },
  );
  return messages;
}

function counting() {
  let calls = 0;
  return {
    summarizer: () => {
      calls++;
      return 'The user and the assistant settled a plan for the service.';
    },
    calls: () => calls,
  };
}

describe('summarize old dialogue: only when the dialogue itself fills the window', () => {
  it('a turn in progress that outweighs a short dialogue drops old turns from this request, and makes no summary', async () => {
    const { summarizer, calls } = counting();
    const messages = conversation(12, 40, 40_000);
    const result = await compactMessages(messages, { contextWindow: 16_000, summarizer });
    expect(calls()).toBe(0);
    expect(result.state).toBeUndefined();
    expect(result.actions).toContain('drop-oldest');
    expect(result.tokensAfter).toBeLessThanOrEqual(16_000 * 0.85);
    // The stored conversation is untouched: the turn over, the next request has every word again.
    const next: Message[] = [
      ...messages,
      { role: 'assistant', content: 'Nothing failed.' },
      { role: 'user', content: 'Thanks.' },
    ];
    const after = await compactMessages(next, { contextWindow: 16_000, summarizer });
    expect(calls()).toBe(0);
    const text = JSON.stringify(after.messages);
    for (let turn = 0; turn < 12; turn++) expect(text).toContain(`assistant turn ${turn}:`);
  });

  it('a dialogue that fills the window is summarized, a large turn in progress or not', async () => {
    for (const inProgressChars of [200, 40_000]) {
      const { summarizer, calls } = counting();
      const result = await compactMessages(conversation(60, 120, inProgressChars), {
        contextWindow: 16_000,
        summarizer,
      });
      expect(calls(), `turn in progress of ${inProgressChars} characters`).toBeGreaterThan(0);
      expect(result.actions).toContain('summarize');
    }
  });
});
