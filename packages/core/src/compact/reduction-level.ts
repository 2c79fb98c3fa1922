/**
 * How far the no-model reductions of a request reached, in conversation message numbers (0-based,
 * system messages not counted), for the summary state that covered the first `coveredCount`: tool
 * results before `stubTo` are stubs, those before `previewTo` previews, and the turns before
 * `foldTo` have their tool steps folded. A compactor hands it back on the next request of the
 * conversation (`CompactRequestOptions.reductionLevel`) so the history is reduced at least as far
 * again: the prompt's prefix changes only when a level is passed, never back and forth.
 */
export interface ReductionLevel {
  readonly coveredCount: number;
  readonly previewTo: number;
  readonly stubTo: number;
  readonly foldTo: number;
}
