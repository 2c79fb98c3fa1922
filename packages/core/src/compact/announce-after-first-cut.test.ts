import { describe, expect, it } from 'vitest';
import type { Message } from '../message/message';
import { RECALL_ANNOUNCEMENT } from '../recall/recall-announcement';
import { FOLDED_TOOLS_HEADER } from '../structure/fold-tool-steps';
import { announceAfterFirstCut } from './announce-after-first-cut';

const folded = (ref: string): Message => ({
  role: 'assistant',
  content: [
    {
      type: 'text',
      text: `${FOLDED_TOOLS_HEADER}\n- read_file(path: "src/a.ts") → 8,123 chars [ref=${ref}]]`,
    },
    { type: 'text', text: 'I read the file.' },
  ],
});

describe('announceAfterFirstCut', () => {
  it('announces the read-back tool after a folded turn when every turn of the history is folded', () => {
    const messages: Message[] = [
      { role: 'user', content: 'Read src/a.ts.' },
      folded('t.AAAAAAAAAAAA'),
      { role: 'user', content: 'And now?' },
      folded('t.BBBBBBBBBBBB'),
    ];
    const announced = announceAfterFirstCut(messages);
    const text = (message: Message) => JSON.stringify(message.content);
    expect(text(announced[1]!)).toContain('[ref=t.AAAAAAAAAAAA]');
    expect(
      (announced[1]!.content as readonly { text: string }[])[0]!.text.endsWith(RECALL_ANNOUNCEMENT),
    ).toBe(true);
    // Once, after the first cut; the input is not mutated; the same input gives the same request.
    expect(announced.filter((message) => text(message).includes('spillway_recall'))).toHaveLength(1);
    expect(text(messages[1]!)).not.toContain('spillway_recall');
    expect(announceAfterFirstCut(messages)).toEqual(announced);
  });

  it("leaves a user's own text that merely shows a reference alone", () => {
    const messages: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'What was [ref=t.AAAAAAAAAAAA] about?' }] },
    ];
    expect(announceAfterFirstCut(messages)).toBe(messages);
  });
});
