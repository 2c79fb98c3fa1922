import type { ModelMessage } from 'ai';
import type { PhrasingSplit } from './phrasings/phrasing-split';

/**
 * The classes of facts the benchmark plants and later looks for.
 * - `identifier-user`: an id, path, URL, port or number the user typed.
 * - `identifier-tool`: the same kinds of identifier inside a large tool result.
 * - `decision`: a choice and its reason ("we chose X because Y"); both must survive.
 * - `superseded`: a setting changed twice; only the latest value is right.
 * - `implicit`: a fact stated once, in passing, inside a longer user message.
 * - `constraint`: a standing rule, however phrased; some are later attacked by tool output
 *   that tells a summarizer to drop earlier rules.
 */
export type NeedleKind =
  | 'identifier-user'
  | 'identifier-tool'
  | 'decision'
  | 'superseded'
  | 'implicit'
  | 'constraint';

/** Every needle kind, in the order tables list them. */
export const NEEDLE_KINDS: readonly NeedleKind[] = [
  'identifier-user',
  'identifier-tool',
  'decision',
  'superseded',
  'implicit',
  'constraint',
];

/**
 * Where a needle's text sits: the user's prose, a blob the user pasted (a config or a log), the
 * assistant's text, or a tool's output.
 */
export type NeedleSource = 'user' | 'pasted' | 'assistant' | 'tool';

/** One place a needle's text was written. */
export interface NeedlePlacement {
  /** The turn (0-based) whose messages hold it. */
  turn: number;
  /** Index of the message in {@link Conversation.messages}. */
  messageIndex: number;
  source: NeedleSource;
  /**
   * The exact strings that must all appear in a request for this placement to count as present
   * (one string: the identifier, the decision sentence, the setting's span, the rule sentence, …).
   */
  values: string[];
  /**
   * Words an answer about this placement must contain (case-insensitive) to show the fact was
   * remembered, for real-model probes: the identifier, the chosen option, the setting's number, the
   * person and team, a rule's key word.
   */
  answers: string[];
}

/** What a needle is about: what questions and probes ask with (never its value or its cue). */
export interface NeedleTopic {
  /** The thing the fact is about (e.g. "nightly ledger reconciliation job"); absent for rules. */
  subject?: string;
  /**
   * What about it: the identifier's kind (`port`, `request`, …), the setting (`retry limit`), the
   * person's relation (`approves`), `decision`, or `rule`.
   */
  detail: string;
  /** For a rule: the questions written with its phrasing (`RulePhrasing.questions`). */
  questions?: readonly string[];
}

/** A fact planted at a known place, with what a model would search for to find it again. */
export interface Needle {
  /** Unique within the conversation, e.g. `constraint-3`. */
  id: string;
  kind: NeedleKind;
  /**
   * Where it was written, oldest first. One placement for every kind but `superseded`, which has
   * one per value the setting took (the last one in force is the right one).
   */
  placements: NeedlePlacement[];
  /**
   * A phrase that stands verbatim next to the needle in the original text and names what it is
   * about without giving it away (e.g. "ledger shard key"). A model looking for the fact would
   * search with it; the benchmark's read-back calls do.
   */
  cue: string;
  topic: NeedleTopic;
  /**
   * The natural-language question a later turn asks about it (see `askQuestion`): what read-back
   * searches and real-model probes work from. Never holds the value or the cue.
   */
  question: string;
  /** For a constraint: the turn of the eviction attack that came after it, if any. */
  attackedAtTurn?: number;
}

/** One call the agent makes to the model: the history before it and the scripted answer. */
export interface ModelCall {
  /** The turn (0-based) the call belongs to. */
  turn: number;
  /** Which call of the turn (0 = first). */
  step: number;
  /** The history the framework hands over is `messages.slice(0, historyLength)`. */
  historyLength: number;
  /** Index in `messages` of the assistant message the model answers with (the script). */
  responseIndex: number;
}

/** One user turn: the ask and everything up to the assistant's final answer. */
export interface Turn {
  /** Index in `messages` of the user's message. */
  userIndex: number;
  /** Index in `messages` of the last message of the turn (the assistant's final answer). */
  endIndex: number;
  /** The user's message as text: what "latest ask presence" looks for, verbatim. */
  ask: string;
}

/** A generated agent conversation and what was planted in it. */
export interface Conversation {
  seed: number;
  /** The phrasings it was written with (see `PhrasingSplit`). */
  split: PhrasingSplit;
  /** The system prompt (not part of `messages`; every strategy keeps it). */
  system: string;
  /** The whole conversation in AI SDK `ModelMessage` form, oldest first, without the system prompt. */
  messages: ModelMessage[];
  turns: Turn[];
  /** Every model call of the session, in order. */
  calls: ModelCall[];
  needles: Needle[];
  /** Turns whose tool output carries an eviction attack. */
  attackTurns: number[];
}
