import type { ResolvedCompactionOptions } from './compaction-options';

/**
 * The engine's options for a request whose context the provider manages (its context-management
 * options were set from Spillway's thresholds): the history is reduced locally only when the
 * request would not fit otherwise — at the emergency threshold, where the provider's own trigger
 * (the compact threshold) has already had its chance — no summary is made (the caller also
 * passes `allowSummarize: false`), and no step is taken early. The storage-time cap, media a
 * text-only provider cannot show, pinned rules and references work as always.
 */
export function delegatedOptions(options: ResolvedCompactionOptions): ResolvedCompactionOptions {
  const { thresholds } = options;
  return {
    ...options,
    earlySteps: false,
    thresholds: { ...thresholds, compact: thresholds.emergency, background: Number.POSITIVE_INFINITY },
  };
}
