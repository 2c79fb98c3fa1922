/**
 * Runs `work` with `performance.now()` held still (the global `performance` swapped for one whose
 * clock does not move, then put back), so a tool's time limit never cuts its work short: what the
 * benchmark's read-back finds must not depend on how busy the machine is. Used around
 * `spillway_recall`, whose search stops at a 25 ms time limit (after a first stretch it always
 * searches) and tells the model where to go on; the size limit still applies. Work that awaits
 * anything but the tool itself must not run inside.
 */
export async function withStillClock<T>(work: () => Promise<T>): Promise<T> {
  const descriptor = Object.getOwnPropertyDescriptor(globalThis, 'performance');
  const real = globalThis.performance;
  const still = real.now();
  const frozen = new Proxy(real, {
    get: (target, property) => (property === 'now' ? () => still : Reflect.get(target, property, target)),
  });
  Object.defineProperty(globalThis, 'performance', { value: frozen, configurable: true, writable: true });
  try {
    return await work();
  } finally {
    if (descriptor) Object.defineProperty(globalThis, 'performance', descriptor);
    else
      Object.defineProperty(globalThis, 'performance', { value: real, configurable: true, writable: true });
  }
}
