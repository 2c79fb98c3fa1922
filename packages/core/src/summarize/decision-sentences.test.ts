import { describe, expect, it } from 'vitest';
import type { Message } from '../message/message';
import { assistantDecisionsOf } from './decision-sentences';

describe('assistantDecisionsOf', () => {
  it("takes the assistant's sentences that state a choice, once each, oldest first", () => {
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
    expect(assistantDecisionsOf(messages)).toEqual([
      'I went with blue-green deploys over rolling deploys for the ledger queue since it rolls back in a minute.',
      'My recommendation stands: feature flags over long-lived branches for the webhooks limiter.',
      'We use Postgres, not MySQL, for the ledger.',
    ]);
  });

  it('leaves out questions, fragments and plain narration', () => {
    const messages: Message[] = [
      {
        role: 'assistant',
        content: 'Decided. Which one did you choose? The build ran for four minutes and passed.',
      },
    ];
    expect(assistantDecisionsOf(messages)).toEqual([]);
  });
});
