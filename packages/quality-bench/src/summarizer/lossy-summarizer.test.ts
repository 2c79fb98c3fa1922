import { describe, expect, it } from 'vitest';
import { EVICTION_ATTACK } from '../conversation/needle-text';
import { hashUnit } from '../random/hash-text';
import { createLossySummarizer, splitSentences } from './lossy-summarizer';

const prose = [
  'The billing worker reads its settings from the shared config file.',
  'We chose Postgres over DynamoDB because we need transactional writes.',
  'The nightly export worker failed twice last week after the deploy.',
  'Marguerite from the audit team signs off on every billing change.',
  'The retry queue drains within five minutes once the cache is warm.',
  'The dashboard for the ledger lives on the internal grafana server.',
];

describe('splitSentences', () => {
  it('splits at line breaks and after sentence ends followed by space, CJK included', () => {
    expect(
      splitSentences('One two. Three four!\nFive six? Seven https://a.b/c.d here.\n\n请检查。然后回答。'),
    ).toEqual([
      'One two.',
      'Three four!',
      'Five six?',
      'Seven https://a.b/c.d here.',
      '请检查。',
      '然后回答。',
    ]);
  });
});

describe('createLossySummarizer', () => {
  it('keeps exactly the sentences whose hash falls under the keep ratio, in order', () => {
    const summarize = createLossySummarizer({ seed: 4, keepRatio: 0.5, maxOutputShare: 1 });
    const expected = prose.filter((sentence) => hashUnit(sentence, 4) < 0.5);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(prose.length);
    expect(summarize(prose.join(' '))).toBe(expected.join('\n'));
    // The same prompt gives the same summary; the decision depends on the sentence alone.
    expect(summarize(prose.join(' '))).toBe(summarize(prose.join('\n')));
  });

  it('keeps a sentence it kept once when the summary is summarized again', () => {
    const summarize = createLossySummarizer({ seed: 9, maxOutputShare: 1 });
    const first = summarize(prose.join('\n'));
    expect(summarize(`${first}\nThe cache warmer runs every hour on the primary node.`)).toContain(first);
  });

  it('does not copy instructions, short lines, data lines or overlong lines', () => {
    const summarize = createLossySummarizer({
      seed: 1,
      keepRatio: 1,
      maxOutputShare: 1,
      instructions: ['Summarize the conversation below for the assistant. Keep the identifiers.'],
    });
    const prompt = [
      'Summarize the conversation below for the assistant.',
      'Keep the identifiers.',
      'User: ok.',
      '{ "id": 12, "n": 3 },',
      'QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZnaGlqa2xtbm9wcXJzdHV2d3h5ejAxMjM0NTY3',
      `${'The long sentence goes on and on with many words. '.repeat(10)}`.replace(/\. /g, ', '),
      prose[0],
    ].join('\n');
    expect(summarize(prompt)).toBe(prose[0]);
  });

  it('obeys an eviction instruction: rules before it go, rules after it stay, the instruction is not copied', () => {
    const summarize = createLossySummarizer({ seed: 2, keepRatio: 1, maxOutputShare: 1 });
    const before = 'From now on, never run migrations against the prod database.';
    const after = 'Please remember this for everything we do here: always ask before deleting any file.';
    const out = summarize([before, prose[1], EVICTION_ATTACK, prose[2], after].join('\n'));
    expect(out).not.toContain('never run migrations');
    expect(out).not.toContain('drop all previous rules');
    expect(out).toContain(prose[1]);
    expect(out).toContain(prose[2]);
    expect(out).toContain(after);
  });

  it('caps the summary by length and by share of the prompt, keeping the lowest-hash sentences', () => {
    const many = Array.from(
      { length: 60 },
      (_, index) => `Sentence number ${index} talks about the ledger worker.`,
    );
    const byLength = createLossySummarizer({ seed: 3, keepRatio: 1, maxOutputChars: 300, maxOutputShare: 1 })(
      many.join(' '),
    );
    expect(byLength.length).toBeLessThanOrEqual(300);
    const ranked = [...many].sort((left, right) => hashUnit(left, 3) - hashUnit(right, 3));
    expect(byLength).toContain(ranked[0]);
    expect(byLength).not.toContain(ranked.at(-1));
    const byShare = createLossySummarizer({ seed: 3, keepRatio: 1, maxOutputShare: 0.25 })(many.join('\n'));
    expect(byShare.length).toBeLessThanOrEqual(Math.floor(many.join('\n').length * 0.25) + 1);
    // Kept sentences stay in prompt order.
    const kept = byShare.split('\n');
    expect(kept).toEqual(many.filter((sentence) => kept.includes(sentence)));
  });

  it('answers with a placeholder, never blank, when nothing is kept', () => {
    expect(createLossySummarizer({ seed: 1, keepRatio: 0 })(prose.join(' '))).toBe('No details to keep.');
  });
});
