/**
 * Plain chat turns (no tools) of a few hundred tokens each, and the small window they fill over a
 * dozen turns: what the chat history's tests and the middleware's waitUntil test talk through.
 */

/** The window the chat history's tests run in. */
export const WINDOW = 4000;

/** A chat turn of about 300 tokens: a 4,000-token window fills over a dozen turns. */
export function turnText(turn: number): string {
  return `Turn ${turn}: tell me about /docs/topic-${turn}.md. ${'Some context about the topic. '.repeat(40)}`;
}
