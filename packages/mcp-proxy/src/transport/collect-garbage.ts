import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * A full garbage collection, where the runtime allows one (`--expose-gc` switched on at run time),
 * else nothing. The proxy calls it around one very large message only: between joining the pieces of
 * a 50 MB line and parsing it, so that the pieces are gone before the parsed copy is made, which
 * keeps the peak near two copies of the message instead of three or four.
 */
export function collectGarbage(): void {
  gc ??= exposeGc();
  gc();
}

let gc: (() => void) | undefined;

/** The runtime's `gc`, switched on when first needed (not at import: the package has no side effects). */
function exposeGc(): () => void {
  try {
    setFlagsFromString('--expose-gc');
    const found = runInNewContext('gc') as unknown;
    return typeof found === 'function' ? () => (found as () => void)() : () => {};
  } catch {
    return () => {};
  }
}
