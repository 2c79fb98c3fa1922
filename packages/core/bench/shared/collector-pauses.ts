import { PerformanceObserver } from 'node:perf_hooks';

/**
 * The garbage collector's main-thread pauses while observed, to tell a call's own time from the
 * collections that landed in it. A collection runs when an allocation finds the young generation
 * full, so it lands on whatever allocates next: right after a parse of a large request body, the
 * call after it pays for moving that body (about 20 ms at 10,000 messages), whatever the call does.
 */
export interface CollectorPauses {
  /** Milliseconds of pauses that started between `start` and `end` (`performance.now()` times). */
  within(start: number, end: number): number;
  /** Resolves once every pause so far has been reported (the observer hears of them afterwards). */
  flush(): Promise<void>;
  /** Stops observing. */
  disconnect(): void;
}

/** Starts recording the collector's pauses (Node's `gc` performance entries). */
export function observeCollectorPauses(): CollectorPauses {
  const pauses: { start: number; duration: number }[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) pauses.push({ start: entry.startTime, duration: entry.duration });
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    within(start, end) {
      let total = 0;
      for (const pause of pauses) if (pause.start >= start && pause.start <= end) total += pause.duration;
      return total;
    },
    flush: () => new Promise((resolve) => setTimeout(resolve, 50)),
    disconnect: () => observer.disconnect(),
  };
}
