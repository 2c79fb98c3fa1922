import { SpillwayError } from './spillway-error';

const marker = 'spillway.error.context-overflow';
const symbol = Symbol.for(marker);

/** What the smallest possible request is made of, in estimated tokens (see `ContextOverflowError`). */
export interface UnshrinkableTokens {
  /** System messages (the system prompt and any others). */
  readonly system: number;
  /** The text of the user's latest message (never cut). */
  readonly userText: number;
  /**
   * The rest of the turn in progress at its smallest: assistant text, tool calls, tool results cut
   * to their floor, image placeholders.
   */
  readonly currentTurn: number;
  /** Tokens outside the messages (tool definitions, provider framing). */
  readonly overhead: number;
}

/**
 * A request does not fit the model's context window. Thrown before any provider call when even the
 * smallest request the engine can make (the system prompt and the turn in progress, its tool
 * results and images shrunk, no history) is over the budget; adapters also throw it when the
 * provider still rejects the prompt after every overflow retry (`cause` is the provider's error).
 */
export class ContextOverflowError extends SpillwayError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for by isInstance
  private readonly [symbol] = true;

  /** The estimated prompt size in tokens, when known. */
  readonly tokenCount: number | undefined;
  /** The context window in tokens, when known. */
  readonly contextWindow: number | undefined;
  /** The budget the request had to fit (the compact threshold's share of the window), when known. */
  readonly budgetTokens: number | undefined;
  /** What could not be shrunk, when the engine refused before calling the provider. */
  readonly unshrinkable: UnshrinkableTokens | undefined;

  constructor({
    message,
    tokenCount,
    contextWindow,
    budgetTokens,
    unshrinkable,
    cause,
  }: {
    message?: string;
    tokenCount?: number;
    contextWindow?: number;
    budgetTokens?: number;
    unshrinkable?: UnshrinkableTokens;
    cause?: unknown;
  } = {}) {
    super({
      name: 'ContextOverflowError',
      message:
        message ??
        `The request does not fit the context window${
          tokenCount !== undefined && contextWindow !== undefined
            ? ` (about ${tokenCount} tokens for a window of ${contextWindow})`
            : ''
        }.`,
      cause,
    });
    this.tokenCount = tokenCount;
    this.contextWindow = contextWindow;
    this.budgetTokens = budgetTokens;
    this.unshrinkable = unshrinkable;
  }

  static override isInstance(error: unknown): error is ContextOverflowError {
    return SpillwayError.hasMarker(error, marker);
  }
}
