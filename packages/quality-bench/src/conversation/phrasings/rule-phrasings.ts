/**
 * Standing rules a user gives, as users phrase them: most without never / always / must / don't.
 * Data only; no engine code imports it (the engine's rule detector is measured against it, see
 * `measureRuleDetector`). Split into `tune` and `heldout` by `splitOf(text)`.
 *
 * Each rule is one sentence (no `. ` inside, not a question), written once per conversation.
 * - `text`: the sentence; a request must carry it verbatim for the rule to count as kept.
 * - `cue`: a phrase of `text` naming what it is about (unique among rules); questions never carry it.
 * - `questions`: natural questions a later turn could ask about the rule (never the cue, never the
 *   answer words).
 * - `answers`: words an answer must contain to show the rule was remembered (real-model probes).
 */
export interface RulePhrasing {
  readonly text: string;
  readonly cue: string;
  readonly questions: readonly string[];
  readonly answers: readonly string[];
}

export const RULE_PHRASINGS: readonly RulePhrasing[] = [
  {
    text: 'Commit messages should be written in French from here.',
    cue: 'written in French',
    questions: [
      'Which language did I ask you to use for commit messages?',
      'How are we supposed to write commit messages now?',
    ],
    answers: ['French'],
  },
  {
    text: "Keep the staging cluster out of it, please — it's for the demo.",
    cue: 'staging cluster',
    questions: [
      'Is there an environment I told you to leave alone, and why?',
      'Which cluster should you not touch, and for what reason?',
    ],
    answers: ['staging', 'demo'],
  },
  {
    text: 'From now on we answer in Spanish.',
    cue: 'answer in Spanish',
    questions: ['Which language should your replies be in?', 'What did I say about the language of answers?'],
    answers: ['Spanish'],
  },
  {
    text: 'Migrations against the prod database are off the table.',
    cue: 'Migrations against the prod database',
    questions: [
      'Can you run the pending schema migration on the live database?',
      'What did I say about migrating the live data store?',
    ],
    answers: ['prod'],
  },
  {
    text: 'Leave everything under the vendor directory as it is.',
    cue: 'vendor directory',
    questions: [
      'Which third-party folder did I ask you not to edit?',
      'Is there a directory whose files you should not change?',
    ],
    answers: ['vendor'],
  },
  {
    text: 'Run the linter before you propose any commit.',
    cue: 'Run the linter',
    questions: [
      'What has to happen before you suggest a commit?',
      'What check did I want before each commit?',
    ],
    answers: ['lint'],
  },
  {
    text: 'Secrets and tokens stay out of your answers.',
    cue: 'Secrets and tokens',
    questions: [
      'What kind of values should never show up in what you write back?',
      'What did I say about credentials in your replies?',
    ],
    answers: ['secret'],
  },
  {
    text: 'Ask me first before deleting any file.',
    cue: 'before deleting any file',
    questions: ['Can you remove old files on your own?', 'What should you do before you remove a file?'],
    answers: ['ask'],
  },
  {
    text: 'New runtime dependencies need my OK first.',
    cue: 'New runtime dependencies',
    questions: [
      'Can you add a package to the production build without checking with me?',
      'What did I say about adding libraries the app ships with?',
    ],
    answers: ['dependenc'],
  },
  {
    text: 'Deploys happen on weekdays before 4 pm, nowhere else.',
    cue: 'weekdays before 4 pm',
    questions: ['When are we allowed to ship to production?', 'Can we release on a Saturday?'],
    answers: ['weekday'],
  },
  {
    text: 'Please stick to pnpm for anything package-related.',
    cue: 'stick to pnpm',
    questions: ['Which package manager should you use?', 'Can I install this with npm or yarn?'],
    answers: ['pnpm'],
  },
  {
    text: 'Pushing straight to main is not how we work here.',
    cue: 'Pushing straight to main',
    questions: [
      'Can you commit the fix directly to the default branch?',
      'How should a change land on the default branch?',
    ],
    answers: ['main'],
  },
  {
    text: 'Every new endpoint gets an integration test, no exceptions.',
    cue: 'gets an integration test',
    questions: [
      'What does a new API route need before it is done?',
      'What did I require for every new endpoint?',
    ],
    answers: ['integration test'],
  },
  {
    text: 'Prices are always shown in euros with two decimals.',
    cue: 'shown in euros',
    questions: ['How should amounts be formatted?', 'Which currency and precision do prices use?'],
    answers: ['euro'],
  },
  {
    text: 'Use UTC for every timestamp you write.',
    cue: 'UTC for every timestamp',
    questions: ['Which time zone should timestamps be in?', 'What did I say about writing dates and times?'],
    answers: ['UTC'],
  },
  {
    text: "I'd like all code comments in English, even in the French modules.",
    cue: 'all code comments in English',
    questions: [
      'Which language do code comments use?',
      'What did I say about comments in the French parts of the code?',
    ],
    answers: ['English'],
  },
  {
    text: 'Keep answers under ten lines unless I ask for detail.',
    cue: 'under ten lines',
    questions: ['How long should your replies be?', 'Is there a length limit I gave for your answers?'],
    answers: ['ten lines'],
  },
  {
    text: 'The billing schema is frozen until the audit ends.',
    cue: 'billing schema is frozen',
    questions: [
      'Can we add a column to the billing tables this week?',
      'What did I say about billing schema changes?',
    ],
    answers: ['audit'],
  },
  {
    text: 'Feature flags go through the flag service, not environment variables.',
    cue: 'through the flag service',
    questions: ['How should a new feature toggle be wired up?', 'Where do feature flags belong?'],
    answers: ['flag service'],
  },
  {
    text: "Let's keep customer names out of the logs.",
    cue: 'customer names out of the logs',
    questions: [
      'What personal data did I say to keep out of logging?',
      'Can we log the customer record as is?',
    ],
    answers: ['customer name'],
  },
  {
    text: 'Tag me on anything that touches the payouts service.',
    cue: 'touches the payouts service',
    questions: [
      'Which changes should I be tagged on?',
      'Who needs to see changes to the service that pays merchants out?',
    ],
    answers: ['payouts'],
  },
  {
    text: 'We squash-merge here, so one commit per pull request.',
    cue: 'one commit per pull request',
    questions: ['How many commits should a pull request have?', 'Which merge style do we use?'],
    answers: ['squash'],
  },
  {
    text: 'Stay away from the legacy auth module until the rewrite lands.',
    cue: 'legacy auth module',
    questions: ['Is there a module you should not modify for now?', 'Can I patch the old login code today?'],
    answers: ['auth'],
  },
  {
    text: 'Tests first, then the fix — that is the order for every bug from now.',
    cue: 'Tests first, then the fix',
    questions: ['In what order do we handle a bug fix?', 'What comes before a bug fix?'],
    answers: ['test'],
  },
  {
    text: 'Any SQL you write has to be reviewed by me before it runs.',
    cue: 'Any SQL you write',
    questions: [
      'Can you run a query you just wrote against the database?',
      'Who has to look at database queries before they run?',
    ],
    answers: ['review'],
  },
  {
    text: 'The public API stays backwards compatible, whatever else changes.',
    cue: 'stays backwards compatible',
    questions: [
      'Can we rename a field in the public interface?',
      'What did I say about breaking changes for API clients?',
    ],
    answers: ['compatib'],
  },
  {
    text: 'Write the changelog entry in the same pull request as the change.',
    cue: 'changelog entry',
    questions: [
      'Where does the release note for a change go?',
      'When do the release notes for a change get written?',
    ],
    answers: ['changelog'],
  },
  {
    text: 'No force-pushes to shared branches.',
    cue: 'force-pushes to shared branches',
    questions: [
      'Can I rewrite history on a branch others use?',
      'Is overwriting the remote history of a common branch fine?',
    ],
    answers: ['force'],
  },
  {
    text: 'Never touch the production feature flags without me.',
    cue: 'production feature flags',
    questions: [
      'Can you change a production toggle on your own?',
      'Who has to be around when prod toggles change?',
    ],
    answers: ['flag'],
  },
  {
    text: 'Always run the full test suite before you say something is done.',
    cue: 'full test suite',
    questions: ['What should happen before you call a task finished?', 'When can you say a change is done?'],
    answers: ['test suite'],
  },
  {
    text: 'You must not log request bodies, they carry card numbers.',
    cue: 'log request bodies',
    questions: ['Can we print the incoming payload when debugging?', 'Why should payloads stay out of logs?'],
    answers: ['card'],
  },
  {
    text: "Don't rename public functions without a deprecation period.",
    cue: 'deprecation period',
    questions: [
      'Can you rename an exported function right away?',
      'What does renaming a public function require?',
    ],
    answers: ['deprecat'],
  },
  {
    text: 'Only deploy the refunds service behind the canary.',
    cue: 'refunds service behind the canary',
    questions: ['How should the refunds service be rolled out?', 'Can refunds go straight to all hosts?'],
    answers: ['canary'],
  },
  {
    text: 'Do not add new cron jobs without asking.',
    cue: 'new cron jobs',
    questions: ['Can you schedule a new periodic task yourself?', 'What did I say about scheduled jobs?'],
    answers: ['cron'],
  },
  {
    text: 'Reply in bullet points when you summarise test runs.',
    cue: 'Reply in bullet points',
    questions: ['How should a test run summary be formatted?', 'What format did I want for test results?'],
    answers: ['bullet'],
  },
  {
    text: 'Docker images are pinned by digest in this repo, keep it that way.',
    cue: 'pinned by digest',
    questions: ['How are container images referenced here?', 'Can I use the latest tag for the base image?'],
    answers: ['digest'],
  },
  {
    text: 'Wait for my go before running anything against the shared Redis.',
    cue: 'shared Redis',
    questions: ['Can you flush the cache server now?', 'What did I say about commands on the shared cache?'],
    answers: ['Redis'],
  },
  {
    text: 'The on-call phone number is not to be shared in any output.',
    cue: 'on-call phone number',
    questions: [
      'What contact detail should stay out of your answers?',
      'Can you put the pager contact in the doc?',
    ],
    answers: ['phone'],
  },
  {
    text: 'Code review happens in English even when we chat in German.',
    cue: 'Code review happens in English',
    questions: [
      'Which language do review comments use?',
      'What language should pull request comments be in?',
    ],
    answers: ['English'],
  },
  {
    text: 'For anything customer-facing, the copy goes past Lea before it ships.',
    cue: 'customer-facing',
    questions: ['Who checks user-visible text before release?', 'What happens to copy before it ships?'],
    answers: ['Lea'],
  },
];
