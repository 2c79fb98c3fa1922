import { type SdkMessage, toNeutralMessage } from '@spillway/ai-sdk-prompt';
import {
  DEFAULT_RECALL_SECRET,
  type Message,
  parseRecallInput,
  RECALL_ANSWER_MAX_CHARS,
  RECALL_TOOL_DESCRIPTION,
  RECALL_TOOL_NAME,
  type RecallAnswerOptions,
  type RecallToolInputSchema,
  recallFromMessages,
  recallToolInputSchema,
} from '@spillway/core';
import { type RecallToolOutput, recallMediaOf, recallModelOutput } from './recall-media-output';

/**
 * Options of {@link recallTool}: the read-back tool's options shared by every adapter
 * (`RecallAnswerOptions` of `@spillway/core`: `secret`, `maxChars`, `maxTokens`, `archive`, `conversationId`).
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
  execute(input: unknown, options: { messages?: readonly unknown[] }): Promise<RecallToolOutput>;
  /** The model's view of the output: text, or for an image the text line and the image itself. */
  toModelOutput(options: { output: unknown }): ReturnType<typeof recallModelOutput>;
}

/**
 * The read-back tool for the AI SDK: add it as `tools: { spillway_recall: recallTool() }` (or
 * `middleware.recallTool()`, which uses the middleware's secret). It reads the originals from the
 * messages the SDK hands to `execute` (the whole conversation), so nothing is stored: a page of a
 * cut tool result, a summarized or dropped span, the lines of the conversation's material that
 * match a search, or an image read back as an image (the output carries it, and `toModelOutput`
 * gives it to the model as the content parts of ai 6 or ai 7). Any input is taken and checked by the
 * tool itself, so bad arguments, an unknown reference or a refused pattern answer with the shared
 * one-line message the model can act on; nothing a model sends makes it throw.
 */
export function recallTool(
  {
    secret = DEFAULT_RECALL_SECRET,
    maxChars = RECALL_ANSWER_MAX_CHARS,
    maxTokens,
    archive,
    conversationId,
  }: RecallToolOptions = {},
  /** The middleware's sizing: the tokens an answer may take in the window of the latest call. */
  defaultMaxTokens: () => number | undefined = () => undefined,
): RecallAiTool {
  // A copy each time: the SDK may adjust the schema it is given (the shared one stays as it is).
  const jsonSchema = () => structuredClone(recallToolInputSchema);
  return {
    description: RECALL_TOOL_DESCRIPTION,
    inputSchema: {
      '~standard': {
        version: 1,
        vendor: 'spillway',
        // Any input: the tool checks it itself, with the shared one-line messages.
        validate: (value) => ({ value: value as Record<string, unknown> }),
        jsonSchema: { input: jsonSchema, output: jsonSchema },
      },
    },
    async execute(input, options) {
      // Checked first: bad input costs nothing, whatever the size of the conversation.
      const parsed = parseRecallInput(input);
      if (!parsed.ok) return parsed.message;
      try {
        const { messages = [] } = options ?? {};
        const tokenLimit = maxTokens ?? defaultMaxTokens();
        const answer = await recallFromMessages({
          input,
          messages: (Array.isArray(messages) ? messages : []).map(modelMessageToNeutral),
          secret,
          maxChars,
          ...(tokenLimit === undefined ? {} : { maxTokens: tokenLimit }),
          ...(archive === undefined ? {} : { archive }),
          ...(conversationId === undefined ? {} : { conversationId }),
        });
        const media = answer.media === undefined ? undefined : recallMediaOf(answer.media);
        if (media === undefined) return answer.text;
        // ai 6 hands `execute` an `experimental_context`, ai 7 a `context`: the output says which
        // content parts to give the model.
        const sdk =
          options !== null && typeof options === 'object' && 'experimental_context' in options
            ? 'ai6'
            : 'ai7';
        return { type: 'spillway-recall-media', text: answer.text, media, sdk };
      } catch (error) {
        const line = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
        return `${RECALL_TOOL_NAME} could not read the conversation: ${line.slice(0, 200)}`;
      }
    },
    toModelOutput: ({ output }) => recallModelOutput(output),
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
