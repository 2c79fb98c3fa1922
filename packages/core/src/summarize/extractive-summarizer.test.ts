import { describe, expect, it } from 'vitest';
import { agentConversation } from '../../test/conversation-fixtures';
import type { Message } from '../message/message';
import { extractIdentifiers } from './extract-identifiers';
import { createExtractiveSummarizer, extractiveDigest, extractiveSummarizer } from './extractive-summarizer';
import { renderTranscript } from './render-transcript';

const messages: Message[] = [
  {
    role: 'user',
    content: 'Deploy build 4821 of api-gateway to https://staging.example.com and check /var/log/app.log',
  },
  {
    role: 'assistant',
    content: [{ type: 'tool-call', toolCallId: '1', toolName: 'deploy', input: { build: 4821 } }],
  },
  {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: '1',
        toolName: 'deploy',
        content: 'ERROR: disk full on node-3',
        isError: true,
      },
    ],
  },
  {
    role: 'assistant',
    content: 'The deploy failed because node-3 ran out of disk; I freed 20 GB and retried.',
  },
];

describe('extractiveSummarizer', () => {
  it('keeps requests, identifiers, tools, errors and conclusions', () => {
    const digest = extractiveDigest(messages, undefined);
    expect(digest).toContain('Deploy build 4821');
    expect(digest).toContain('https://staging.example.com');
    expect(digest).toContain('/var/log/app.log');
    expect(digest).toContain('deploy ×1 (1 failed)');
    expect(digest).toContain('disk full on node-3');
    expect(digest).toContain('freed 20 GB');
  });

  it('is deterministic and works as a Summarizer', async () => {
    const input = { system: '', prompt: '', messages, previousSummary: undefined, transcript: '' };
    expect(await extractiveSummarizer(input)).toBe(await extractiveSummarizer(input));
  });

  it('stays within its size whatever the span, merging the previous summary', () => {
    const long = agentConversation({ turns: 200, toolResultChars: 500 });
    const summarizer = createExtractiveSummarizer({ maxChars: 3000 });
    const digest = summarizer({
      system: '',
      prompt: '',
      messages: long,
      previousSummary: 'P'.repeat(10_000),
      transcript: '',
    }) as string;
    expect(digest.length).toBeLessThanOrEqual(3000);
    expect(digest.startsWith('PPP')).toBe(true);
    expect(digest).toContain('\n\nThen:\nDigest of');
    expect(digest).toContain('Turn 199');
  });

  it('handles an empty span', () => {
    expect(extractiveDigest([], undefined)).toContain('0 earlier messages');
  });
});

describe('extractIdentifiers', () => {
  it('finds URLs, paths, file names, ids and numbers, once each', () => {
    const found = extractIdentifiers(
      'See https://a.example/x?y=1, edit src/app/main.ts and ./lib/util.js, ticket OPS-42, port 8080, v1.2.3, ~/notes/todo.md, ask bob@example.com; 8080 again, e.g. this',
    );
    expect(found).toEqual(
      expect.arrayContaining([
        'https://a.example/x?y=1',
        'src/app/main.ts',
        './lib/util.js',
        'OPS-42',
        '8080',
        'v1.2.3',
        '~/notes/todo.md',
        'bob@example.com',
      ]),
    );
    expect(found.filter((identifier) => identifier === '8080')).toHaveLength(1);
    expect(found).not.toContain('e.g');
  });
});

describe('renderTranscript', () => {
  it('labels roles, renders calls and shortens results, omits reasoning', () => {
    const transcript = renderTranscript(
      [
        ...messages,
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'secret thoughts' },
            { type: 'text', text: 'visible' },
          ],
        },
        {
          role: 'tool',
          content: [{ type: 'tool-result', toolCallId: '2', toolName: 'fetch', content: 'x'.repeat(10_000) }],
        },
      ],
      { maxToolResultChars: 500 },
    );
    expect(transcript).toContain('User: Deploy build 4821');
    expect(transcript).toContain('Assistant called deploy({"build":4821})');
    expect(transcript).toContain('Tool error (deploy): ERROR: disk full');
    expect(transcript).not.toContain('secret thoughts');
    expect(transcript).toContain('Assistant: visible');
    const fetchLine = transcript.split('\n\n').find((block) => block.startsWith('Tool result (fetch)'))!;
    expect(fetchLine.length).toBeLessThan(600);
  });
});
