import { describe, expect, it } from 'vitest';
import type { Message } from '../message/message';
import { decisionsOf } from './decision-sentences';

describe('decisionsOf', () => {
  it("takes the user's and the assistant's sentences that state a choice, once each, oldest first", () => {
    const messages: Message[] = [
      { role: 'user', content: 'We decided to go with Redis rather than Memcached for sessions.' },
      {
        role: 'assistant',
        content: [
          {
            type: 'text',
            text: 'I read the config. I went with blue-green deploys over rolling deploys for the ledger queue since it rolls back in a minute. Should we pick Kafka instead of SQS?',
          },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'read_file', input: { path: 'decided.ts' } },
        ],
      },
      {
        role: 'assistant',
        content:
          'My recommendation stands: feature flags over long-lived branches for the webhooks limiter.\nThe tests pass.\nWe use Postgres, not MySQL, for the ledger.\nI went with blue-green deploys over rolling deploys for the ledger queue since it rolls back in a minute.',
      },
    ];
    expect(decisionsOf(messages)).toEqual([
      { text: 'We decided to go with Redis rather than Memcached for sessions.', by: 'user' },
      {
        text: 'I went with blue-green deploys over rolling deploys for the ledger queue since it rolls back in a minute.',
        by: 'assistant',
      },
      {
        text: 'My recommendation stands: feature flags over long-lived branches for the webhooks limiter.',
        by: 'assistant',
      },
      { text: 'We use Postgres, not MySQL, for the ledger.', by: 'assistant' },
    ]);
  });

  it('leaves out questions, fragments, plain narration and tool output', () => {
    const messages: Message[] = [
      {
        role: 'assistant',
        content: 'Decided. Which one did you choose? The build ran for four minutes and passed.',
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'read_file',
            content: 'We decided to go with Redis rather than Memcached.',
          },
        ],
      },
    ];
    expect(decisionsOf(messages)).toEqual([]);
  });
});
