import { describe, expect, it } from 'vitest';
import type { Message } from '../message/message';
import { foldToolSteps } from './fold-tool-steps';

const log = (id: string) =>
  [
    '2026-03-02T10:00:00.331Z INFO worker started',
    `2026-03-02T10:00:01.004Z ERROR request_id=${id} upstream timed out after 30s`,
    'INFO retrying',
  ].join('\n');

function turn(calls: number): Message[] {
  const ids = Array.from({ length: calls }, (_, index) => `call_${index}`);
  return [
    { role: 'user', content: 'Why does the export worker fail?' },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Reading the logs.' },
        ...ids.map((toolCallId) => ({
          type: 'tool-call' as const,
          toolCallId,
          toolName: 'read_log',
          input: { path: `/var/log/${toolCallId}.log` },
        })),
      ],
    },
    {
      role: 'tool',
      content: ids.map((toolCallId, index) => ({
        type: 'tool-result' as const,
        toolCallId,
        toolName: 'read_log',
        content: log(`req-7f3a9c2e${index}`),
      })),
    },
    { role: 'assistant', content: 'The upstream times out.' },
  ];
}

describe('foldToolSteps', () => {
  it('folds a turn into one line per call, keeping every word of the dialogue', () => {
    const { messages, callCount } = foldToolSteps(turn(2));
    expect(callCount).toBe(2);
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    const text = JSON.stringify(messages);
    expect(text).toContain('- read_log(path: \\"/var/log/call_0.log\\")');
    expect(text).toContain('Reading the logs.');
    expect(text).toContain('The upstream times out.');
    expect(text).not.toContain('mentioned');
  });

  it('lists the identifiers each result mentioned when asked, not the call arguments', () => {
    const lines = foldLines(turn(2), 320);
    expect(lines[0]).toContain('; mentioned req-7f3a9c2e0');
    expect(lines[1]).toContain('; mentioned req-7f3a9c2e1');
    for (const line of lines) {
      expect(mentioned(line)).not.toContain('/var/log');
      // Timestamps tell nothing one would look up.
      expect(mentioned(line)).not.toContain('2026-03-02T10');
    }
  });

  it('shares the identifier budget among the lines of a turn, each within its own bounds', () => {
    for (const calls of [1, 4, 12]) {
      const lines = foldLines(turn(calls), 320);
      expect(lines).toHaveLength(calls);
      for (const line of lines) {
        expect(mentioned(line).length).toBeGreaterThan(0);
        expect(mentioned(line).length).toBeLessThanOrEqual(
          Math.min(160, Math.max(40, Math.floor(320 / calls))),
        );
      }
    }
  });

  it('names each image a result held by what mediaOf says (its placeholder and reference)', () => {
    const shot: Message[] = [
      { role: 'user', content: 'Take a screenshot.' },
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'shot', toolName: 'screenshot', input: { url: '/login' } },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'shot',
            toolName: 'screenshot',
            content: [
              { type: 'text', text: 'Login page' },
              { type: 'image', data: 'iVBORw0KGgo=', mediaType: 'image/png' },
            ],
          },
        ],
      },
    ];
    const counted = foldLines(shot, 320)[0]!;
    expect(counted).toContain('10 chars + 1 media');
    const folded = foldToolSteps(shot, { mediaOf: (part) => `[image: ${part.mediaType}] [ref=i.x]` })
      .messages[1]!;
    expect(JSON.stringify(folded)).toContain('10 chars + [image: image/png] [ref=i.x]');
  });
});

/** The call lines of a folded turn. */
function foldLines(messages: Message[], identifierChars: number): string[] {
  const folded = foldToolSteps(messages, { identifierChars }).messages[1]!;
  const first = typeof folded.content === 'string' ? undefined : folded.content[0];
  const text = first?.type === 'text' ? first.text : '';
  return text.split('\n').filter((line) => line.startsWith('- '));
}

/** What a line lists after `; mentioned`. */
function mentioned(line: string): string {
  return line.match(/; mentioned (.*?)\]?$/)?.[1] ?? '';
}
