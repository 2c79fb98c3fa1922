const marker = 'spillway.error';
const symbol = Symbol.for(marker);

/**
 * The base class of every error Spillway throws. Check with `SpillwayError.isInstance(error)`
 * rather than `instanceof`, which breaks when two copies of the package are installed.
 */
export class SpillwayError extends Error {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for by isInstance
  private readonly [symbol] = true;

  constructor({ name, message, cause }: { name: string; message: string; cause?: unknown }) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = name;
  }

  /** Whether `error` is a `SpillwayError`, from any copy of the package. */
  static isInstance(error: unknown): error is SpillwayError {
    return SpillwayError.hasMarker(error, marker);
  }

  /** Used by subclasses: whether `error` carries the marker `Symbol.for(markerName)`. */
  protected static hasMarker(error: unknown, markerName: string): boolean {
    const markerSymbol = Symbol.for(markerName);
    return (
      error != null &&
      typeof error === 'object' &&
      markerSymbol in error &&
      (error as Record<symbol, unknown>)[markerSymbol] === true
    );
  }
}
