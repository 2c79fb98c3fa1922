import type { Message } from '../message/message';

/**
 * For a message list of length n, an array of n + 1 flags: `safe[b]` is true when cutting the list
 * before index b (older = [0, b), recent = [b, n)) leaves no tool call on one side and its result on
 * the other. Calls that never get a result and results whose call is missing are ignored: they are
 * orphans already, and no boundary can make them worse. A result pairs with the latest call of its
 * id before it, so ids that repeat across turns (some servers number calls per response) pair up
 * turn by turn.
 */
export function safeBoundaries(messages: readonly Message[]): boolean[] {
  const callIndex = new Map<string, number>();
  // open[b] counts call/result pairs that a cut before b would separate (difference array).
  // Plain loops over the parts: this runs over every message of every request.
  const open = new Int32Array(messages.length + 2);
  for (let index = 0; index < messages.length; index++) {
    const content = messages[index]!.content;
    if (typeof content === 'string') continue;
    for (const part of content) {
      if (part.type !== 'tool-result') continue;
      const callAt = callIndex.get(part.toolCallId);
      if (callAt === undefined || callAt >= index) continue;
      open[callAt + 1]!++;
      open[index + 1]!--;
    }
    for (const part of content) if (part.type === 'tool-call') callIndex.set(part.toolCallId, index);
  }
  const safe = new Array<boolean>(messages.length + 1);
  let running = 0;
  for (let boundary = 0; boundary <= messages.length; boundary++) {
    running += open[boundary]!;
    safe[boundary] = running === 0;
  }
  return safe;
}

/**
 * The start indexes of the message groups in `[from, n)`: a group is a run that no safe boundary
 * cuts (an assistant message with its tool calls and the messages carrying their results, or a
 * single message). Oldest first.
 */
export function groupStarts(safe: readonly boolean[], from: number): number[] {
  const starts: number[] = [];
  for (let index = from; index < safe.length - 1; index++) {
    if (safe[index]) starts.push(index);
  }
  return starts;
}
