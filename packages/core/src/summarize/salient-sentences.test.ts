import { describe, expect, it } from 'vitest';
import { salientSentenceParts, sentenceTexts } from './salient-sentences';

const salientSentences = (text: string, options?: { names?: boolean }) =>
  sentenceTexts(salientSentenceParts(text), options);

describe('salientSentenceParts and sentenceTexts', () => {
  it('keeps the sentences that name something or carry a choice, a direction or a rule', () => {
    const kept = [
      'The account in question is ACC-430271.',
      'The settings live in /srv/billing/contract.conf on the batch host.',
      'It took 45 minutes last time.',
      'I think Ravi on the risk team still carries the pager.',
      "Let's go with the queue rather than the cron job, since it retries.",
      'We should page the on-call engineer first.',
      'Write the changelog entries in the past tense.',
      'Please stop suggesting Redux.',
      'You may now run migrations against staging.',
      'Which of them touches /etc/hosts?',
    ];
    const dropped = [
      'that was a long week for everyone here.',
      'the dashboard looked fine this morning.',
      'What do you think?',
      'Thanks, that helps a lot.',
    ];
    const text = [dropped[0], kept[0], kept[1], dropped[1], kept[2], kept[3], dropped[2], kept[4]]
      .concat([kept[5], dropped[3], kept[6], kept[7], kept[8], kept[9]])
      .join(' ');
    expect(salientSentences(text)).toEqual(kept);
    // Without the sentences that only name something (a question too: it asks for the moment).
    expect(salientSentences(text, { names: false })).toEqual([
      kept[3],
      kept[4],
      kept[5],
      kept[6],
      kept[7],
      kept[8],
    ]);
  });

  it('is empty for prose that names nothing and directs nothing, and for no text', () => {
    expect(salientSentences('the weather was nice. the build looked slow today.')).toEqual([]);
    expect(salientSentences('')).toEqual([]);
  });
});
