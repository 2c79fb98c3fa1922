import { SpillwayError } from './spillway-error';

const marker = 'spillway.error.context-overflow';
const symbol = Symbol.for(marker);

/**
 * A request did not fit the model's context window, even after every compaction step. Adapters
 * throw it when progressive compaction has run out of steps; `cause` is the provider's error.
 */
export class ContextOverflowError extends SpillwayError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for by isInstance
  private readonly [symbol] = true;

  /** The estimated prompt size in tokens, when known. */
  readonly tokenCount: number | undefined;
  /** The context window in tokens, when known. */
  readonly contextWindow: number | undefined;

  constructor({
    message,
    tokenCount,
    contextWindow,
    cause,
  }: { message?: string; tokenCount?: number; contextWindow?: number; cause?: unknown } = {}) {
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
  }

  static override isInstance(error: unknown): error is ContextOverflowError {
    return SpillwayError.hasMarker(error, marker);
  }
}
