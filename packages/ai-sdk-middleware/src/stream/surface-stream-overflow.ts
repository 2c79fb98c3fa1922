import { isContextOverflowError } from '@spillway/core';

/** A stream part the middleware looks at: its type, and for `error` parts, the error. */
interface StreamPart {
  readonly type: string;
  readonly error?: unknown;
}

/**
 * Parts a provider sends before any content; an error after them is still "before any content".
 * `ping` is a keep-alive (V4), and `custom` carries provider metadata: `@ai-sdk/anthropic` 4 sends
 * a `custom` part of kind `anthropic.message_start` right after `response-metadata`.
 */
const PREAMBLE_TYPES = new Set(['stream-start', 'response-metadata', 'raw', 'ping', 'custom']);

/**
 * Some providers accept a request (HTTP 200) and report "prompt is too long" as the first event of
 * the stream (Anthropic's `error` event with `invalid_request_error`). This reads the stream up to
 * its first content part: when that part is an `error` whose error is a context overflow, the
 * stream is cancelled and the error thrown, so the caller can compact and retry exactly as for a
 * thrown overflow. Otherwise the result comes back with a stream that replays what was read and
 * then continues (nothing is lost or reordered; the first content part is what a consumer would
 * wait for anyway).
 */
export async function surfaceStreamOverflow<Result>(result: Result): Promise<Result> {
  const { stream } = result as { stream?: unknown };
  if (!(stream instanceof ReadableStream)) return result;
  const reader = (stream as ReadableStream<StreamPart>).getReader();
  const buffered: StreamPart[] = [];
  let done = false;
  for (;;) {
    const next = await reader.read();
    if (next.done) {
      done = true;
      break;
    }
    const part = next.value;
    if (part?.type === 'error' && isContextOverflowError(part.error)) {
      await reader.cancel().catch(() => {});
      throw part.error;
    }
    buffered.push(part);
    if (!PREAMBLE_TYPES.has(part?.type)) break;
  }
  const replay = new ReadableStream<StreamPart>({
    async pull(controller) {
      const part = buffered.shift();
      if (part !== undefined) {
        controller.enqueue(part);
        return;
      }
      if (done) {
        controller.close();
        return;
      }
      try {
        const next = await reader.read();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      } catch (error) {
        controller.error(error);
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return { ...(result as object), stream: replay } as Result;
}
