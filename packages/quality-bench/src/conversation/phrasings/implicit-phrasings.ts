/**
 * Facts said once, in passing (who owns, built, approves or is paged for something). Data only; no
 * engine code imports it. Split into `tune` and `heldout` by `splitOf(text)`.
 *
 * Slots: `{person}`, `{team}`, `{subject}`.
 * - `value`: the span naming the person and the team (a request must carry it verbatim).
 * - `cue`: the phrase beside it naming what it is about; questions never carry it.
 * - `relation`: what the person has to do with the subject (questions ask about it).
 */
export interface ImplicitPhrasing {
  readonly text: string;
  readonly value: string;
  readonly cue: string;
  readonly relation: ImplicitRelation;
}

/** What the person has to do with the subject. */
export type ImplicitRelation = 'approves' | 'built' | 'on-call' | 'owns' | 'informed';

export const IMPLICIT_PHRASINGS: readonly ImplicitPhrasing[] = [
  {
    text: 'By the way, {person} from the {team} team signs off on anything that touches the {subject}, so keep the diff small.',
    value: '{person} from the {team} team',
    cue: 'touches the {subject}',
    relation: 'approves',
  },
  {
    text: 'Keep in mind that the {subject} was first built by {person} from the {team} team, so expect their conventions in there.',
    value: '{person} from the {team} team',
    cue: '{subject} was first built by',
    relation: 'built',
  },
  {
    text: '{person} on the {team} team is the one who gets paged when the {subject} breaks, not us.',
    value: '{person} on the {team} team',
    cue: 'paged when the {subject} breaks',
    relation: 'on-call',
  },
  {
    text: 'Funny story, {person} ({team} team) wrote the {subject} over a weekend back in the day.',
    value: '{person} ({team} team)',
    cue: 'wrote the {subject} over a weekend',
    relation: 'built',
  },
  {
    text: 'If the {subject} needs a config change we have to ask {person} in {team} first.',
    value: '{person} in {team}',
    cue: 'the {subject} needs a config change',
    relation: 'approves',
  },
  {
    text: 'Technically the {subject} belongs to {person} from the {team} team.',
    value: '{person} from the {team} team',
    cue: 'the {subject} belongs to',
    relation: 'owns',
  },
  {
    text: 'I had coffee with {person} from {team} yesterday and apparently the {subject} is theirs now.',
    value: '{person} from {team}',
    cue: 'apparently the {subject} is theirs',
    relation: 'owns',
  },
  {
    text: 'Any change to the {subject} goes past {person} on {team} for review, that is how it has been for years.',
    value: '{person} on {team}',
    cue: 'change to the {subject} goes past',
    relation: 'approves',
  },
  {
    text: 'Oh and {person} of the {team} team is the reviewer of record for the {subject}.',
    value: '{person} of the {team} team',
    cue: 'reviewer of record for the {subject}',
    relation: 'approves',
  },
  {
    text: 'Whatever we do to the {subject}, {person} from the {team} team will want a heads-up.',
    value: '{person} from the {team} team',
    cue: 'Whatever we do to the {subject}',
    relation: 'informed',
  },
  {
    text: 'I think {person} on the {team} team still carries the pager for the {subject}.',
    value: '{person} on the {team} team',
    cue: 'carries the pager for the {subject}',
    relation: 'on-call',
  },
  {
    text: "{person} from the {team} team asked about the {subject} this morning, they're the ones who approve it.",
    value: '{person} from the {team} team',
    cue: 'asked about the {subject} this morning',
    relation: 'approves',
  },
];
