import {
  DEFAULT_RECALL_SECRET,
  type Message,
  RECALL_ANSWER_MAX_CHARS,
  RECALL_TOOL_DESCRIPTION,
  type RecallAnswerOptions,
  type RecallToolInputSchema,
  recallFromMessages,
  recallToolInputSchema,
} from '@spillway/core';
import type { SdkMessage } from '../prompt/sdk-prompt';
import { toNeutralMessage } from '../prompt/to-neutral-message';

/**
 * Options of {@link recallTool}: the read-back tool's options shared by every adapter
 * (`RecallAnswerOptions` of `@spillway/core`: `secret`, `maxChars`, `archive`, `conversationId`).
 * The AI SDK hands every tool the whole conversation, so the middleware needs no `archive`; give one
 * only if your app caps results before they reach the SDK.
 */
export interface RecallToolOptions extends RecallAnswerOptions {}

/** The input schema of {@link recallTool}: a Standard Schema (v1) with its JSON Schema. */
export interface RecallToolSchema {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: 'spillway';
    validate(value: unknown): { value: Record<string, unknown> } | { issues: { message: string }[] };
    readonly jsonSchema: {
      input(options?: unknown): RecallToolInputSchema;
      output(options?: unknown): RecallToolInputSchema;
    };
  };
}

/** An AI SDK tool (ai 6 and 7): put it in `tools` under {@link RECALL_TOOL_NAME}. */
export interface RecallAiTool {
  readonly description: string;
  readonly inputSchema: RecallToolSchema;
  execute(input: unknown, options: { messages?: readonly unknown[] }): Promise<string>;
}

/**
 * The read-back tool for the AI SDK: add it as `tools: { spillway_recall: recallTool() }` (or
 * `middleware.recallTool()`, which uses the middleware's secret). It reads the originals from the
 * messages the SDK hands to `execute` (the whole conversation), so nothing is stored: a page of a
 * cut tool result, an image's placeholder line, a summarized or dropped span, or the lines of the
 * conversation's material that match a search. A reference from another conversation, or one made
 * up, answers with an error text the model can act on.
 */
export function recallTool({
  secret = DEFAULT_RECALL_SECRET,
  maxChars = RECALL_ANSWER_MAX_CHARS,
  archive,
  conversationId,
}: RecallToolOptions = {}): RecallAiTool {
  // A copy each time: the SDK may adjust the schema it is given (the shared one stays as it is).
  const jsonSchema = () => structuredClone(recallToolInputSchema);
  return {
    description: RECALL_TOOL_DESCRIPTION,
    inputSchema: {
      '~standard': {
        version: 1,
        vendor: 'spillway',
        // Arguments are checked by the tool itself, with a message written for the model.
        validate: (value) =>
          typeof value === 'object' && value !== null && !Array.isArray(value)
            ? { value: value as Record<string, unknown> }
            : { issues: [{ message: 'Pass an object: {"ref": "…"} or {"search": "…"}.' }] },
        jsonSchema: { input: jsonSchema, output: jsonSchema },
      },
    },
    async execute(input, { messages = [] }) {
      const answer = await recallFromMessages({
        input,
        messages: messages.map(modelMessageToNeutral),
        secret,
        maxChars,
        ...(archive === undefined ? {} : { archive }),
        ...(conversationId === undefined ? {} : { conversationId }),
      });
      return answer.text;
    },
  };
}

/**
 * An AI SDK `ModelMessage` (what `execute` receives) as a neutral message: the prompt shape, but
 * `image` parts (`{ image, mediaType }`) stand as the `file` parts the SDK turns them into.
 */
function modelMessageToNeutral(message: unknown): Message {
  const sdk = message as SdkMessage;
  if (!Array.isArray(sdk?.content)) return toNeutralMessage(sdk);
  let changed = false;
  const content = sdk.content.map((part) => {
    if (part?.type !== 'image') return part;
    changed = true;
    const { image, mediaType, ...rest } = part as { image?: unknown; mediaType?: unknown };
    return {
      ...rest,
      type: 'file',
      data: image,
      mediaType: typeof mediaType === 'string' ? mediaType : 'image/*',
    };
  });
  return toNeutralMessage(changed ? { ...sdk, content } : sdk);
}
