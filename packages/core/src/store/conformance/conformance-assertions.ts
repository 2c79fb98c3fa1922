/** The error a conformance case fails with: says which part of the contract broke. */
export class StoreConformanceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreConformanceError';
  }
}

/** Fails the case with `message` unless `condition` holds. */
export function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new StoreConformanceError(message);
}

/** Fails the case unless both values have the same JSON. */
export function same(actual: unknown, expected: unknown, message: string): void {
  const a = JSON.stringify(actual);
  const b = JSON.stringify(expected);
  check(a === b, `${message}\n  expected: ${b?.slice(0, 300)}\n  actual:   ${a?.slice(0, 300)}`);
}

/** Fails the case unless `work` rejects; returns what it rejected with. */
export async function rejects(work: () => Promise<unknown>, message: string): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new StoreConformanceError(message);
}

/** Runs `work`; a rejection fails the case with `message` and the error's own message. */
export async function answers<T>(work: () => Promise<T>, message: string): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw new StoreConformanceError(`${message}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
