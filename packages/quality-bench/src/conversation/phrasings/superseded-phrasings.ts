/**
 * A setting set, changed, and changed again: how each step is said. Data only; no engine code
 * imports it. Split into `tune` and `heldout` by `splitOf(text)`.
 *
 * Slots: `{setting}`, `{subject}`, `{number}` (two digits, distinct per step).
 * - `stage`: which step it phrases (the first value, a change, the last change).
 * - `value`: the span a request must carry for this value (it names the setting, the subject and
 *   the number, so no other step's value can be mistaken for it).
 */
export interface SupersededPhrasing {
  readonly stage: 'set' | 'change' | 'final';
  readonly text: string;
  readonly value: string;
}

export const SUPERSEDED_PHRASINGS: readonly SupersededPhrasing[] = [
  {
    stage: 'set',
    text: 'Set the {setting} of the {subject} to {number} for now.',
    value: '{setting} of the {subject} to {number}',
  },
  {
    stage: 'set',
    text: "Let's start the {subject} with a {setting} of {number}.",
    value: '{subject} with a {setting} of {number}',
  },
  {
    stage: 'set',
    text: 'For the {subject}, use {number} as the {setting} to begin with.',
    value: '{subject}, use {number} as the {setting}',
  },
  {
    stage: 'set',
    text: 'Start with a {setting} of {number} on the {subject} and we will see.',
    value: '{setting} of {number} on the {subject}',
  },
  {
    stage: 'change',
    text: 'Please change the {setting} of the {subject} to {number} instead, the first value was too aggressive.',
    value: '{setting} of the {subject} to {number}',
  },
  {
    stage: 'change',
    text: 'Actually, make the {setting} for the {subject} {number}; the earlier number was wrong.',
    value: '{setting} for the {subject} {number}',
  },
  {
    stage: 'change',
    text: 'Bump the {setting} on the {subject} to {number}, please.',
    value: '{setting} on the {subject} to {number}',
  },
  {
    stage: 'change',
    text: 'Change of plan: the {subject} should run with a {setting} of {number}.',
    value: '{subject} should run with a {setting} of {number}',
  },
  {
    stage: 'final',
    text: 'Final call on this one: put the {setting} of the {subject} to {number} and leave it there.',
    value: '{setting} of the {subject} to {number}',
  },
  {
    stage: 'final',
    text: 'Last change, promise: the {subject} gets a {setting} of {number}.',
    value: '{subject} gets a {setting} of {number}',
  },
  {
    stage: 'final',
    text: 'OK, settle the {setting} of the {subject} at {number} for good.',
    value: '{setting} of the {subject} at {number}',
  },
  {
    stage: 'final',
    text: 'We are done tuning: {number} is the final {setting} for the {subject}.',
    value: '{number} is the final {setting} for the {subject}',
  },
];
