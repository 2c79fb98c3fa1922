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
  });

  it('compares topics by content words', () => {
    const rule = topicWords('Never run migrations against the prod database.');
    expect([...rule].sort()).toEqual(['database', 'migration', 'prod', 'run'].sort());
    expect(topicOverlap(rule, topicWords('You may now run migrations on prod.'))).toBe(1);
    expect(topicOverlap(rule, topicWords('You may now push to main.'))).toBe(0);
  });
});
