/**
 * One signal that aborts when any of `signals` does, or when `timeoutMs` passes (with a
 * `TimeoutError` reason). `dispose` clears the timer and the listeners; call it when the work is done
 * so nothing keeps the process alive. Works where `AbortSignal.any` is missing.
 */
export function linkSignals(
  signals: ReadonlyArray<AbortSignal | undefined>,
  timeoutMs?: number,
  timeoutMessage?: string,
): { signal: AbortSignal; timedOut: () => boolean; dispose: () => void } {
  const controller = new AbortController();
  const cleanups: Array<() => void> = [];
  let timedOut = false;
  const dispose = () => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  };
  for (const signal of signals) {
    if (signal === undefined) continue;
    if (signal.aborted) {
      controller.abort(signal.reason);
      return { signal: controller.signal, timedOut: () => false, dispose };
    }
    const onAbort = () => {
      controller.abort(signal.reason);
      dispose();
    };
    signal.addEventListener('abort', onAbort, { once: true });
    cleanups.push(() => signal.removeEventListener('abort', onAbort));
  }
  if (timeoutMs !== undefined && Number.isFinite(timeoutMs)) {
    const timer = setTimeout(
      () => {
        timedOut = true;
        controller.abort(timeoutError(timeoutMessage ?? `Timed out after ${timeoutMs} ms.`));
        dispose();
      },
      Math.max(0, timeoutMs),
    );
    // Never keep a Node process alive for a deadline alone.
    (timer as { unref?: () => void }).unref?.();
    cleanups.push(() => clearTimeout(timer));
  }
  return { signal: controller.signal, timedOut: () => timedOut, dispose };
}

/**
 * Settles with `work`, or rejects with the signal's reason as soon as the signal aborts, whichever
 * comes first: a summarizer that ignores its signal is abandoned, not waited for.
 */
export function raceAbort<T>(work: PromiseLike<T> | T, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return Promise.resolve(work);
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    Promise.resolve(work).then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

function timeoutError(message: string): Error {
  if (typeof DOMException === 'function') return new DOMException(message, 'TimeoutError');
  const error = new Error(message);
  error.name = 'TimeoutError';
  return error;
}
