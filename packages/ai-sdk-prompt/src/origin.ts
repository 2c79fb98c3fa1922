/**
 * Links between the neutral messages the engine works on and the AI SDK objects they came from.
 *
 * - `originals`: a neutral object made by the conversion → the SDK object it stands for. The engine
 *   returns objects it did not change as the very same objects, so a hit means "unchanged: send the
 *   original".
 * - `ORIGIN`: an enumerable symbol property on every converted object. The engine builds changed
 *   objects with object spread, which copies it, so a changed message or part still knows its
 *   template (provider options, output type). Symbols are skipped by `Object.keys` and JSON, so
 *   hashing and counting never see it.
 */
export const ORIGIN: unique symbol = Symbol('spillway.origin');

export const originals = new WeakMap<object, unknown>();

/** Marks `neutral` as standing for `original`; returns `neutral`. */
export function link<T extends object>(neutral: T, original: unknown): T {
  (neutral as Record<symbol, unknown>)[ORIGIN] = original;
  originals.set(neutral, original);
  return neutral;
}

/** The SDK object a (possibly changed) neutral object was made from. */
export function templateOf(neutral: object): Record<string, unknown> | undefined {
  const template = (neutral as Record<symbol, unknown>)[ORIGIN];
  return typeof template === 'object' && template !== null
    ? (template as Record<string, unknown>)
    : undefined;
}
