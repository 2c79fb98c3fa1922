import { describe, expect, it } from 'vitest';
import { detectRules, splitSentences, topicOverlap, topicWords } from './detect-rules';

describe('detectRules', () => {
  it('finds imperatives and prohibitions, verbatim', () => {
    const text = [
      'Hi! Never run migrations against the prod database.',
      'Always write commit messages in French.',
      "Please don't push to main without a review.",
      '- Do not touch the billing service.',
      'You must keep answers under 200 words.',
      'Only use pnpm in this repository.',
      'From now on, reply in British English.',
      'Deleting customer data is strictly forbidden.',
      'Important: make sure every migration has a rollback.',
      'I want you to always cite the file path.',
    ].join('\n');
    expect(detectRules(text).rules).toEqual([
      'Never run migrations against the prod database.',
      'Always write commit messages in French.',
      "Please don't push to main without a review.",
      'Do not touch the billing service.',
      'You must keep answers under 200 words.',
      'Only use pnpm in this repository.',
      'From now on, reply in British English.',
      'Deleting customer data is strictly forbidden.',
      'Important: make sure every migration has a rollback.',
      'I want you to always cite the file path.',
    ]);
  });

  it('finds a rule after a short lead-in that ends with a colon or a dash', () => {
    const text = [
      'Please remember this for everything we do here: never run migrations against the prod database.',
      'One standing rule for the rest of this session: only use pnpm, never npm or yarn.',
      'A rule for this repository — always run the linter before proposing a commit.',
      'Here is the log: never seen this error before.',
      'Status: always green since Monday.',
      'The plan: we ship on Friday.',
    ].join('\n');
    expect(detectRules(text).rules).toEqual([
      'Please remember this for everything we do here: never run migrations against the prod database.',
      'One standing rule for the rest of this session: only use pnpm, never npm or yarn.',
      'A rule for this repository — always run the linter before proposing a commit.',
    ]);
  });

  it('skips leading filler phrases whole, not only their first word', () => {
    for (const text of [
      'Just so you know, never push to main.',
      'Just so you know: commit messages go in the imperative mood.',
      'Oh and never push to main.',
      'For the record, never push to main.',
    ]) {
      expect(detectRules(text).rules).toEqual([text]);
    }
  });

  it('leaves questions, small talk and ordinary statements alone', () => {
    const text = [
      'Never mind, it works now.',
      "Don't worry about the tests.",
      'Should we always use pnpm?',
      'The build always the same error gives.',
      'Only 3 tests failed this time.',
      'Can you read the log?',
      'I ran the migration yesterday.',
      'Thanks!',
    ].join('\n');
    expect(detectRules(text).rules).toEqual([]);
  });

  it('finds standing instructions phrased without rule words: a lasting policy, or a directive that says it lasts', () => {
    const rules = [
      'Keep the API keys out of any file you commit.',
      'Answer in German from here.',
      'Stick with yarn for this project.',
      'The payments table is frozen until the migration ships.',
      'Customer emails are not to be pasted into tickets.',
      'Every pull request needs a linked issue.',
      "I'd like all dates in ISO format.",
      'Use snake_case for every column you add.',
      'Ping me on anything that touches the billing cron.',
      'Leave the vendor folder alone unless I ask.',
      'Release notes go through Dana, no exceptions.',
      'Invoices are always rounded to the cent.',
    ];
    for (const rule of rules) expect(detectRules(rule).rules, rule).toEqual([rule]);
  });

  it('leaves one-off requests and descriptions alone, even with every / all / should', () => {
    const ordinary = [
      'Run all the tests.',
      'Check every file in src/ for the old import.',
      'Add a test for every branch of that switch.',
      'Write the migration for all three tables.',
      'Every test passed this time.',
      'All the builds are red.',
      'The payment service is frozen in time, funny.',
      'You should look at the retry logic.',
      'We should probably move this to a worker at some point.',
      'I want to understand why the cache misses.',
      'Use the staging database to reproduce this.',
      'Keep going.',
      "You can't really test this locally.",
      'Stick the config in the README for now.',
      'Ping me when the deploy is done.',
      'Tag me when the PR is merged.',
    ];
    for (const sentence of ordinary) expect(detectRules(sentence).rules, sentence).toEqual([]);
  });

  it('finds revocations', () => {
    expect(detectRules('OK. You may now run migrations against the prod database.').revocations).toEqual([
      'You may now run migrations against the prod database.',
    ]);
    expect(detectRules("It's fine to push to main now.").revocations).toEqual([
      "It's fine to push to main now.",
    ]);
    expect(detectRules('Forget the rule about commit messages in French.').revocations).toHaveLength(1);
    expect(detectRules('You no longer need to cite file paths.').revocations).toHaveLength(1);
  });

  it('splits sentences at line breaks and sentence ends, keeping the text', () => {
    expect(splitSentences('One two three. Four five six!\n* seven eight nine?\n1. ten')).toEqual([
      'One two three.',
      'Four five six!',
      'seven eight nine?',
      'ten',
    ]);
    // Not after a title or an abbreviation: the rule stays one sentence, and is caught whole.
    const rule = 'Address the customer as Dr. Okafor in any reply you draft.';
    expect(splitSentences(`${rule} Use tabs, e.g. in Go files. Done.`)).toEqual([
      rule,
      'Use tabs, e.g. in Go files.',
      'Done.',
    ]);
    expect(detectRules(rule).rules).toEqual([rule]);
  });

  it('compares topics by content words', () => {
    const rule = topicWords('Never run migrations against the prod database.');
    expect([...rule].sort()).toEqual(['database', 'migration', 'prod', 'run'].sort());
    expect(topicOverlap(rule, topicWords('You may now run migrations on prod.'))).toBe(1);
    expect(topicOverlap(rule, topicWords('You may now push to main.'))).toBe(0);
  });
});
