// biome-ignore-all lint/suspicious/noExplicitAny: one test body drives two SDK major versions, typed loosely on purpose
/**
 * ai 6 and ai 7 side by side (pnpm alias `ai7`), so every behaviour is tested against both real
 * SDKs with their own official mocks (`MockLanguageModelV3` / `MockLanguageModelV4` from `ai/test`).
 */
import * as ai6 from 'ai';
import * as ai6Test from 'ai/test';
import * as ai7 from 'ai7';
import * as ai7Test from 'ai7/test';

/** The parts of one SDK the tests use, typed loosely so one test body serves both versions. */
export interface Sdk {
  name: 'ai 6' | 'ai 7';
  version: 'v3' | 'v4';
  generateText: (options: any) => Promise<any>;
  streamText: (options: any) => any;
  wrapLanguageModel: (options: { model: any; middleware: any }) => any;
  createMockModel: (options: { modelId?: string; doGenerate?: any; doStream?: any }) => MockModel;
  tool: (options: any) => any;
  jsonSchema: (schema: any) => any;
  stepCountIs: (count: number) => unknown;
  createUIMessageStream: (options: any) => ReadableStream<any>;
  APICallError: new (options: any) => Error;
  simulateReadableStream: (options: { chunks: any[] }) => ReadableStream<any>;
  ToolLoopAgent: new (
    settings: any,
  ) => { generate: (options: any) => Promise<any>; stream: (options: any) => Promise<any> };
}

/** What the tests read of a mock model. */
export interface MockModel {
  modelId: string;
  doGenerate: (options: any) => PromiseLike<any>;
  doGenerateCalls: any[];
  doStreamCalls: any[];
}

export const sdks: Sdk[] = [
  {
    name: 'ai 6',
    version: 'v3',
    generateText: ai6.generateText,
    streamText: ai6.streamText,
    wrapLanguageModel: ai6.wrapLanguageModel,
    createMockModel: (options) => new ai6Test.MockLanguageModelV3(options),
    tool: ai6.tool,
    jsonSchema: ai6.jsonSchema,
    stepCountIs: ai6.stepCountIs,
    createUIMessageStream: ai6.createUIMessageStream,
    APICallError: ai6.APICallError,
    simulateReadableStream: ai6.simulateReadableStream,
    ToolLoopAgent: ai6.ToolLoopAgent,
  },
  {
    name: 'ai 7',
    version: 'v4',
    generateText: ai7.generateText,
    streamText: ai7.streamText,
    wrapLanguageModel: ai7.wrapLanguageModel,
    createMockModel: (options) => new ai7Test.MockLanguageModelV4(options),
    tool: ai7.tool,
    jsonSchema: ai7.jsonSchema,
    stepCountIs: ai7.stepCountIs,
    createUIMessageStream: ai7.createUIMessageStream,
    APICallError: ai7.APICallError,
    simulateReadableStream: ai7.simulateReadableStream,
    ToolLoopAgent: ai7.ToolLoopAgent,
  },
];

/** V3/V4 usage for a mock result. */
export function usage(inputTokens?: number, outputTokens = 10) {
  return {
    inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: outputTokens, text: outputTokens, reasoning: undefined },
  };
}

/** A mock generate result with text. */
export function textResult(text: string, inputTokens?: number) {
  return {
    content: [{ type: 'text', text }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: usage(inputTokens),
    warnings: [],
  };
}

/** A mock generate result with one tool call. */
export function toolCallResult(toolCallId: string, toolName: string, input: unknown, inputTokens?: number) {
  return {
    content: [{ type: 'tool-call', toolCallId, toolName, input: JSON.stringify(input) }],
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage: usage(inputTokens),
    warnings: [],
  };
}

/** The chunks of a mock stream that says `text`. */
export function textChunks(text: string, inputTokens?: number) {
  return [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't1' },
    { type: 'text-delta', id: 't1', delta: text },
    { type: 'text-end', id: 't1' },
    { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: usage(inputTokens) },
  ];
}

/** A context-length error as OpenAI returns it, as the SDK's `APICallError`. */
export function openAiOverflowError(sdk: Sdk): Error {
  const responseBody = JSON.stringify({
    error: {
      message:
        "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens. Please reduce the length of the messages.",
      type: 'invalid_request_error',
      param: 'messages',
      code: 'context_length_exceeded',
    },
  });
  return new sdk.APICallError({
    message: "This model's maximum context length is 8192 tokens.",
    url: 'https://api.openai.com/v1/chat/completions',
    requestBodyValues: {},
    statusCode: 400,
    responseBody,
    isRetryable: false,
  });
}
