import type { Message } from '../message/message';

/** Media inside results, in tokens, for sizing batches. */
const MEDIA_TOKENS = 500;

/** The tool output a message carries, roughly in tokens (results' text at four characters a token, media flat). */
export function toolOutputTokens(message: Message): number {
  if (!Array.isArray(message.content)) return 0;
  let tokens = 0;
  for (const part of message.content) {
    if (part?.type === 'image' || part?.type === 'file') tokens += MEDIA_TOKENS;
    if (part?.type !== 'tool-result') continue;
    if (typeof part.content === 'string') tokens += Math.ceil(part.content.length / 4);
    else if (Array.isArray(part.content)) {
      for (const item of part.content) {
        if (item?.type === 'text') tokens += Math.ceil(item.text.length / 4);
        else if (item?.type === 'image' || item?.type === 'file') tokens += MEDIA_TOKENS;
      }
    }
  }
  return tokens;
}

/**
 * Batch ends: the end of the turn at which what the turns since the last end save adds up to
 * `batch`. Each end depends on the turns before it alone, so it stays where it is as the
 * conversation grows; the turns after the last end (a batch still filling) have none.
 */
export function batchEnds(
  savings: readonly number[],
  turnEnd: (turn: number) => number,
  batch: number,
): number[] {
  const ends: number[] = [];
  let saved = 0;
  savings.forEach((value, turn) => {
    saved += value;
    if (saved >= batch) {
      ends.push(turnEnd(turn));
      saved = 0;
    }
  });
  return ends;
}
