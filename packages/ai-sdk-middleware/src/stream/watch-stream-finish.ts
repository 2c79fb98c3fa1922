/** What the stream said when it finished. */
export interface StreamFinish {
  usage: unknown;
  finishReason: unknown;
  /** Whether the stream carried a tool call (the turn goes on). */
  toolCalls: boolean;
}

type Part = { type: string; usage?: unknown; finishReason?: unknown };

/**
 * The stream result with its stream passed through unchanged, watched for tool calls and the
 * `finish` part; `onFinish` runs once the stream has ended after a `finish` part (inside `flush`,
 * so background work starts without holding the stream open). A result without a stream is
 * returned as is.
 */
export function watchStreamFinish<Result>(
  result: Result,
  onFinish: (finish: StreamFinish) => void,
  /** Sees each tool call as it passes, before the SDK acts on it. */
  onToolCall: (part: unknown) => void = () => {},
): Result {
  const { stream } = result as { stream?: ReadableStream<Part> };
  if (!(stream instanceof ReadableStream)) return result;
  let usage: unknown;
  let finishReason: unknown;
  let finished = false;
  let toolCalls = false;
  const watched = stream.pipeThrough(
    new TransformStream<Part, Part>({
      transform(chunk, controller) {
        if (chunk?.type === 'tool-call') {
          toolCalls = true;
          onToolCall(chunk);
        }
        if (chunk?.type === 'finish') {
          usage = chunk.usage;
          finishReason = chunk.finishReason;
          finished = true;
        }
        controller.enqueue(chunk);
      },
      flush() {
        if (finished) onFinish({ usage, finishReason, toolCalls });
      },
    }),
  );
  return { ...(result as object), stream: watched } as Result;
}
