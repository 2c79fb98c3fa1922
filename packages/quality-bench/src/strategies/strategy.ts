import type { ModelMessage } from 'ai';
import type { Conversation, ModelCall } from '../conversation/conversation';
import type { BenchRequest } from '../request/bench-request';
import type { BenchSummarizer } from '../summarizer/bench-summarizer';
import type { TokenCounter } from '../tokens/token-counter';

/** What a strategy is given for one conversation at one budget. */
export interface StrategyContext {
  conversation: Conversation;
  /** The model's context window for this run, in tokens (see the README: budget share × final size). */
  contextWindow: number;
  /** The summarizer every strategy that accepts one is given (the same for all of them). */
  summarizer: BenchSummarizer;
  /** The benchmark's token counter (o200k): what the provider and every reported number count with. */
  counter: TokenCounter;
  /**
   * The counter strategies that accept one steer by (LangChain's `tokenCounter`, context-chef's
   * `tokenizer`): Spillway's content-class estimator, the one Spillway itself steers by, so all
   * three decide on the same counts.
   */
  steering: TokenCounter;
}

/** What happened on one model call. */
export interface StepResult {
  /**
   * Every request the provider received for this call, in order: more than one when the framework
   * retried after the provider rejected a prompt as too long.
   */
  sent: BenchRequest[];
  /** The request the provider answered (the last of `sent`), or undefined when the call failed. */
  delivered: BenchRequest | undefined;
}

/** What a model is looking for when it reads cut material back. Never contains the answer. */
export interface ReadBackQuestion {
  /**
   * The question asked about the fact, in natural language (`Needle.question`): never its value,
   * never the phrase that stood next to it.
   */
  text: string;
}

/** One read-back tool call the simulated model made, and the tool's answer. */
export interface ReadBackCall {
  toolName: string;
  input: unknown;
  output: string;
}

/** What a read-back mechanism is given. */
export interface ReadBackInput {
  /** The compacted request the model received (with whatever references it carries). */
  request: BenchRequest;
  /** The conversation as the application holds it at this point: the originals. */
  history: readonly ModelMessage[];
  question: ReadBackQuestion;
  /** At most this many tool calls (the benchmark allows 2). */
  maxCalls: number;
}

/**
 * A strategy's own way for the model to get cut material back (Spillway's `spillway_recall`,
 * context-chef's `context` tool, …): answer with the tool calls a model would make, at most
 * `maxCalls` of them. Most adapters build one with `toolReadBack`, which plays the model the same
 * way for every strategy.
 */
export type ReadBack = (input: ReadBackInput) => Promise<ReadBackCall[]>;

/** One strategy running one conversation. */
export interface StrategySession {
  /** Makes model call `call`: the framework is handed the history so far and sends its request. */
  step(call: ModelCall): Promise<StepResult>;
  /** The strategy's read-back mechanism, when it has one. */
  readBack?: ReadBack;
  /** Calls made to the summarizer so far. */
  summarizerCalls(): number;
  /** Tokens sent to the summarizer so far (o200k). */
  summarizerTokens(): number;
}

/** A context-management strategy under test. */
export interface Strategy {
  /** The row label in the tables. */
  name: string;
  /** Whether it summarizes (and so is given the run's summarizer). */
  summarizes: boolean;
  /** Whether its sessions have a read-back mechanism (its "found" scores are shown). */
  readsBack: boolean;
  /**
   * Whether the row belongs in the headline tables; `false` puts it in the secondary table (a
   * variant, or a configuration its own docs advise against for long sessions). Every row is in
   * the JSON either way.
   * @default true
   */
  headline?: boolean;
  /**
   * Whether the row runs only when `--strategies` names it (a slow row, e.g. a whole framework's
   * agent loop per turn); it is in the JSON of the runs that include it.
   * @default false
   */
  optIn?: boolean;
  /** How it is configured, in a sentence (printed in the README's strategies table and the JSON). */
  configuration?: string;
  start(context: StrategyContext): Promise<StrategySession>;
}
