import { describe, expect, it } from 'vitest';
import { type DevPart, report, score } from '../../test/rule-dev-set';

/**
 * A second round of phrasings, written without looking at the patterns (2026-11-28), when the detector
 * caught 10 of `tuning2`'s 30 rules: habits in a leading clause ("Any time you open a pull request, …"), named
 * policies ("as a rule", "rule of thumb"), who alone may, a class treated as something, "keep using",
 * "I need all …". The patterns were extended on `tuning2` (10/30 → 29/30, no false pin added in any
 * set here or in the quality benchmark's generated text); `heldBack2` was written before the change
 * and scored once after it: 5/20 → 14/20 caught, 0/10 false pins before and after.
 */
const tuning2: DevPart = {
  rules: [
    'Whenever you touch the billing code, ping Maria first.',
    'Any time you open a pull request, link the ticket in the description.',
    'If you ever need to restart the workers, drain the queue beforehand.',
    'As a rule, we deploy from the release branch.',
    'Each time you add a dependency, note why in the changelog.',
    "It's important that the staging database is never reset without a backup.",
    'Our policy is to answer support tickets within four hours.',
    'For all future scripts, use bash strict mode.',
    'Every change to the schema needs a migration and a rollback.',
    'I need all timestamps in UTC.',
    'Please keep using the v2 client for anything new.',
    'Remember that the legal team signs off on wording changes.',
    'The rule of thumb here: one feature flag per experiment.',
    'Before you run a migration in production, take a snapshot.',
    'When in doubt, ask me rather than guess.',
    'Log lines should be structured JSON, not free text.',
    'All new services get a health endpoint at /healthz.',
    "Let's always pin exact versions in package.json.",
    'Keep the README in sync with the CLI flags.',
    'Only the on-call engineer may rotate the keys.',
    'Code reviews need two approvals before merge.',
    'We write commit messages in English, even for the Berlin team.',
    'Nobody deploys on Fridays.',
    'Config values come from environment variables, never from files in the repo.',
    'Put new tests under test/integration.',
    'Treat customer IDs as personal data.',
    'Reply in German when the ticket is in German.',
    'Use the company template for every incident report.',
    'Make every error message say what to do next.',
    'Benchmarks run on the dedicated runner, not on laptops.',
  ],
  nonRules: [
    'The billing code has three modules.',
    'I opened a pull request yesterday.',
    'Can you restart the workers?',
    'We deployed from the release branch last week.',
    'The staging database was reset on Monday.',
    'Answer this ticket first.',
    'The schema changed in March.',
    'The timestamps look wrong in this report.',
    'Maria signed off on the wording.',
    'Run the migration now.',
  ],
  messages: [],
};

/** Scored once, after the second round's patterns were set (see `tuning2`). */
const heldBack2: DevPart = {
  rules: [
    'From here out, the API docs get updated in the same PR as the code.',
    'Whenever a test is flaky, quarantine it instead of retrying it.',
    'Any new table needs a created_at column.',
    'If a customer asks for a refund, loop in finance.',
    'Each release gets a tag and release notes.',
    "It's essential that PII never leaves the EU region.",
    'Our standard is 80% line coverage on new code.',
    'I need every chart labelled with its units.',
    'Keep using Vitest for the new packages.',
    'Remember that the mobile app still calls the v1 endpoints.',
    'Before merging, rebase on main.',
    'Only admins can change the billing plan.',
    'Releases need a sign-off from QA.',
    'We name branches after the ticket number.',
    'No one pushes directly to main.',
    'Put shared helpers in packages/utils.',
    'Treat warnings as errors in CI.',
    'Answer in Spanish whenever the user writes in Spanish.',
    'Use the shared logger for every new module.',
    'Make each commit build on its own.',
  ],
  nonRules: [
    'I updated the API docs yesterday.',
    'This test is flaky.',
    'Add a created_at column to the orders table.',
    'The customer asked for a refund.',
    'Tag this release as v2.3.1.',
    'Where does the PII go?',
    'Coverage dropped to 78% on this branch.',
    'Label this chart, please.',
    'Rebase this branch on main.',
    'Put the helper in packages/utils for now.',
  ],
  messages: [],
};

describe('detectRules on a second round of freely phrased instructions', () => {
  it('catches the second round of phrasings, written blind, without pinning their look-alikes', () => {
    const tuned = score(tuning2);
    const held = score(heldBack2);
    console.log(
      [
        report('tuning 2', tuned),
        report('held back 2', held),
        `held back 2 missed: ${JSON.stringify(held.missed)}`,
      ].join('\n'),
    );
    // As measured when the round was set: 29/30 and 14/20 caught, no false pin (before: 10/30, 5/20).
    expect(tuned.caught).toBeGreaterThanOrEqual(29);
    expect(held.caught).toBeGreaterThanOrEqual(14);
    expect(tuned.falsePins + held.falsePins).toBe(0);
  });
});
