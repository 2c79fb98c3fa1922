/**
 * The seeds' rule of thumb: one token per four characters. Spillway keeps it as a named constant,
 * the floor its content-aware estimator (`estimateTextTokens`) has to beat: chars/4 is close for
 * English prose but underestimates CJK text about 2.4× and base64 about 2.7×, and overestimates
 * source code and JSON. Use it only where a rough figure is enough (e.g. turning a token budget
 * into a character budget for truncation).
 */
export const CHARS_PER_TOKEN_ESTIMATE = 4;
