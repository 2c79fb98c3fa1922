import { Session } from 'node:inspector/promises';

/** Bytes between two samples of V8's sampling heap profiler, on average. */
const SAMPLING_INTERVAL_BYTES = 4096;

/**
 * About how many bytes of the collected heap one call of `work` allocates, averaged over one call
 * per input (the inputs are made beforehand, so their own allocation is not counted): V8's sampling
 * heap profiler, one sample every 4 KB on average, objects collected since counted too. Storage
 * outside the collected heap (typed arrays' buffers) is not counted: it does not fill the young
 * generation. What a call allocates is what the next scavenge must sweep past, and how soon it
 * comes.
 */
export async function allocatedPerCall<Input>(
  inputs: readonly Input[],
  work: (input: Input) => unknown,
): Promise<number> {
  const session = new Session();
  session.connect();
  try {
    await session.post('HeapProfiler.enable');
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: SAMPLING_INTERVAL_BYTES,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    for (const input of inputs) await work(input);
    const { profile } = await session.post('HeapProfiler.stopSampling');
    let bytes = 0;
    const pending = [profile.head];
    while (pending.length > 0) {
      const node = pending.pop()!;
      bytes += node.selfSize;
      pending.push(...node.children);
    }
    return bytes / inputs.length;
  } finally {
    await session.post('HeapProfiler.disable').catch(() => undefined);
    session.disconnect();
  }
}
