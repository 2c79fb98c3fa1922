/**
 * Decisions and their reasons, as users and assistants state them. Data only; no engine code
 * imports it. Split into `tune` and `heldout` by `splitOf(text)`.
 *
 * Slots: `{chosen}`, `{rejected}`, `{subject}`, `{reason}`. The needle's value is the whole
 * sentence without its full stop (the choice, what it beat, what for and why must all survive).
 * - `cue`: the phrase of the sentence naming what it is about; questions never carry it.
 * - `by`: who says it (`either`: the user or the assistant, at random).
 */
export interface DecisionPhrasing {
  readonly text: string;
  readonly cue: string;
  readonly by: 'user' | 'assistant' | 'either';
}

export const DECISION_PHRASINGS: readonly DecisionPhrasing[] = [
  {
    text: 'We chose {chosen} over {rejected} for the {subject} because {reason}.',
    cue: 'over {rejected} for the {subject}',
    by: 'either',
  },
  {
    text: "Let's go with {chosen} rather than {rejected} for the {subject}, since {reason}.",
    cue: 'rather than {rejected} for the {subject}',
    by: 'user',
  },
  {
    text: 'After the call we settled on {chosen} instead of {rejected} for the {subject}: {reason}.',
    cue: 'instead of {rejected} for the {subject}',
    by: 'user',
  },
  {
    text: 'For the {subject} it is {chosen}, not {rejected}, because {reason}.',
    cue: 'For the {subject} it is',
    by: 'either',
  },
  {
    text: 'Decision on the {subject}: {chosen} wins over {rejected}, mostly because {reason}.',
    cue: 'Decision on the {subject}',
    by: 'user',
  },
  {
    text: 'I went with {chosen} over {rejected} for the {subject} since {reason}.',
    cue: 'went with {chosen} over {rejected}',
    by: 'assistant',
  },
  {
    text: 'So {chosen} it is for the {subject}; we dropped {rejected} because {reason}.',
    cue: 'it is for the {subject}',
    by: 'user',
  },
  {
    text: 'The {subject} gets {chosen} and not {rejected}, the main reason being that {reason}.',
    cue: 'The {subject} gets',
    by: 'either',
  },
  {
    text: 'We talked it over and the {subject} will use {chosen} instead of {rejected} because {reason}.',
    cue: 'the {subject} will use',
    by: 'user',
  },
  {
    text: 'Picking {chosen} over {rejected} for the {subject} makes sense because {reason}.',
    cue: 'for the {subject} makes sense',
    by: 'assistant',
  },
  {
    text: 'Ok, final answer on the {subject}: {chosen} beats {rejected} here because {reason}.',
    cue: 'final answer on the {subject}',
    by: 'user',
  },
  {
    text: "Between {chosen} and {rejected} for the {subject} we're taking the first, because {reason}.",
    cue: "for the {subject} we're taking the first",
    by: 'user',
  },
  {
    text: 'My recommendation stands: {chosen} over {rejected} for the {subject}, since {reason}.',
    cue: 'My recommendation stands',
    by: 'assistant',
  },
];
