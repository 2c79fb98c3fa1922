import { SpillwayError } from './spillway-error';

const marker = 'spillway.error.summarization';
const symbol = Symbol.for(marker);

/**
 * The summarizer failed on every attempt (it threw, or returned blank text). The conversation is
 * never changed by a failed summary; the compactor falls back to dropping old messages from the
 * request only.
 */
export class SummarizationError extends SpillwayError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for by isInstance
  private readonly [symbol] = true;

  /** How many times the summarizer was called. */
  readonly attempts: number;
  /** What went wrong on each attempt, oldest first. */
  readonly errors: readonly unknown[];

  constructor({
    attempts,
    errors,
    message,
  }: { attempts: number; errors: readonly unknown[]; message?: string }) {
    const last = errors.at(-1);
    super({
      name: 'SummarizationError',
      message:
        message ??
        `Summarization failed after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${describe(last)}`,
      cause: last,
    });
    this.attempts = attempts;
    this.errors = errors;
  }

  static override isInstance(error: unknown): error is SummarizationError {
    return SpillwayError.hasMarker(error, marker);
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
