/**
 * Identifiers the user types or pastes: how they are said. Data only; no engine code imports it.
 * Split into `tune` and `heldout` by `splitOf(text)`.
 *
 * Slots: `{subject}` (what it is about, e.g. "nightly ledger reconciliation job"), `{subjectKey}`
 * (the same in snake case), `{value}` (the identifier, written by the generator for `kind`).
 * - `blob`: absent for a sentence of the user's prose; `yaml` / `log` for a line of a config or a
 *   log the user pastes into the message.
 * - `cue`: the phrase beside the value naming what it is about; questions never carry it.
 */
export interface UserIdentifierPhrasing {
  readonly kind: UserIdentifierKind;
  readonly text: string;
  readonly cue: string;
  readonly blob?: 'yaml' | 'log';
}

/** What a user-typed identifier is: decides how its value is written and how it is asked about. */
export type UserIdentifierKind = 'deploy' | 'path' | 'url' | 'port' | 'count' | 'ticket' | 'branch' | 'host';

export const USER_IDENTIFIER_PHRASINGS: readonly UserIdentifierPhrasing[] = [
  { kind: 'deploy', text: 'The last deploy of the {subject} was {value}.', cue: 'deploy of the {subject}' },
  {
    kind: 'deploy',
    text: 'Before I forget — the {subject} release that broke things was {value}.',
    cue: '{subject} release that broke things',
  },
  {
    kind: 'path',
    text: 'The {subject} reads its settings from {value} on every start.',
    cue: '{subject} reads its settings',
  },
  {
    kind: 'path',
    text: '{value} is the config file the {subject} loads, in case that matters.',
    cue: 'config file the {subject} loads',
  },
  {
    kind: 'url',
    text: 'The dashboard for the {subject} is {value} if you need it.',
    cue: 'dashboard for the {subject}',
  },
  {
    kind: 'url',
    text: 'Side note: I keep the graphs for the {subject} at {value}.',
    cue: 'graphs for the {subject}',
  },
  { kind: 'port', text: 'The {subject} listens on {value} in staging.', cue: '{subject} listens on' },
  {
    kind: 'port',
    text: 'In staging the {subject} binds to {value}, not the default one.',
    cue: 'the {subject} binds to',
  },
  { kind: 'count', text: 'The {subject} processed {value} last night.', cue: '{subject} processed' },
  {
    kind: 'count',
    text: "Last night's run of the {subject} handled {value}, give or take.",
    cue: 'run of the {subject} handled',
  },
  {
    kind: 'ticket',
    text: 'fwiw the {subject} work is tracked as {value}, I keep forgetting to link it.',
    cue: '{subject} work is tracked as',
  },
  {
    kind: 'branch',
    text: 'I pushed my half-done fix for the {subject} to {value}, have a look when you get to it.',
    cue: 'half-done fix for the {subject}',
  },
  {
    kind: 'host',
    text: 'Oh, the {subject} runs on {value} now, they moved it last week.',
    cue: 'the {subject} runs on',
  },
  { kind: 'path', blob: 'yaml', text: '  {subjectKey}_settings: {value}', cue: '{subjectKey}_settings' },
  { kind: 'url', blob: 'yaml', text: '  {subjectKey}_dashboard: {value}', cue: '{subjectKey}_dashboard' },
  { kind: 'host', blob: 'yaml', text: '  {subjectKey}_host: {value}', cue: '{subjectKey}_host' },
  {
    kind: 'deploy',
    blob: 'log',
    text: '2026-03-02T09:12:44.020Z INFO rollout of {subjectKey} finished as {value}',
    cue: 'rollout of {subjectKey}',
  },
];
