/** Compact before a request when the prompt uses this share of the context window (seed FEAT-011). */
export const COMPACT_THRESHOLD_RATIO = 0.85;

/** Start summarizing in the background after a response at this share (seed Spacebot). */
export const BACKGROUND_THRESHOLD_RATIO = 0.8;

/** Drop the oldest messages from the request, without a model, at this share (seed Spacebot). */
export const EMERGENCY_THRESHOLD_RATIO = 0.95;
