// biome-ignore-all lint/suspicious/noExplicitAny: provider bodies are JSON read loosely, one body drives two SDK generations
/**
 * The real provider packages of both AI SDK generations (`@ai-sdk/openai`, `@ai-sdk/anthropic`,
 * `@ai-sdk/google`: 4.x for ai 7, 3.x for ai 6 as `openai3`, `anthropic3`, `google3`), each with
 * what its API answers (successful responses, tool calls, the real "too long" error bodies) and the
 * rules its API enforces on a request body. The e2e tests point each package at a loopback server
 * and check every request the package's own request builder wrote.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogle } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { createAnthropic as createAnthropic3 } from 'anthropic3';
import { createGoogleGenerativeAI as createGoogle3 } from 'google3';
import { createOpenAI as createOpenAI3 } from 'openai3';
import { type Sdk, sdks } from '../sdk';
import type { Reply } from './loopback-server';

export type ProviderKind = 'openai-chat' | 'openai-responses' | 'anthropic' | 'google';

/** A tool call the server makes the model ask for. */
export interface ToolCallReply {
  id: string;
  name: string;
  input: Record<string, unknown>;
}

/** One turn of a request body, whatever the provider's format. */
export interface ViewMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  /** The message's text parts, joined with a newline. */
  text: string;
  /** The text parts one by one (user messages). */
  parts?: string[];
  toolCalls: { id: string | undefined; name: string }[];
  toolResults: {
    id: string | undefined;
    name: string | undefined;
    text: string;
    isError: boolean;
    images: number;
  }[];
  /** Images outside tool results. */
  images: number;
}

/** A provider package of one SDK generation, pointed at a loopback server. */
export interface ProviderTarget {
  /** e.g. `ai 7 · @ai-sdk/google 4`. */
  name: string;
  kind: ProviderKind;
  sdk: Sdk;
  /** The path the provider's base URL ends in. */
  basePath: string;
  modelId: string;
  /** The provider's own language model, sending to `baseURL`. */
  model(baseURL: string, modelId?: string): any;
  /** Throws a `ProviderRuleError` naming the rule the body breaks (what the real API answers with a 400). */
  validate(body: any): void;
  /** The body as a list of neutral turns, for assertions. */
  read(body: any): ViewMessage[];
  /** A successful response: text, or tool calls (parallel when several). */
  answer(options: { text?: string; toolCalls?: readonly ToolCallReply[]; inputTokens: number }): Reply;
  /**
   * The provider's real "prompt too long" error response, stating the limit and the prompt's size
   * where the provider's wording does.
   */
  overflow(options: { limit: number; tokens: number }): Reply;
  /** Whether the overflow body states the limit (OpenAI's Responses API wording does not). */
  statesLimit: boolean;
}

/** A broken provider rule: the real API would answer the request with a 400. */
export class ProviderRuleError extends Error {
  override name = 'ProviderRuleError';
}

function rule(condition: unknown, message: string): asserts condition {
  if (!condition) throw new ProviderRuleError(message);
}

const v3 = sdks.find((sdk) => sdk.version === 'v3')!;
const v4 = sdks.find((sdk) => sdk.version === 'v4')!;
const apiKey = 'test-key';

// ---------------------------------------------------------------------------------------------
// OpenAI chat completions

/**
 * OpenAI chat: system messages first; an assistant message with `tool_calls` is followed by one
 * tool message per call ("An assistant message with 'tool_calls' must be followed by tool messages
 * responding to each 'tool_call_id'"); every tool message answers a call of that assistant message
 * ("messages with role 'tool' must be a response to a preceding message with 'tool_calls'"); tool
 * messages hold text only, and no image serialized into that text (base64 the model cannot see,
 * unless `mediaAsText`, what `toolResultMedia: 'keep'` asks for); no empty user or system content.
 */
export function validateOpenAiChat(body: any, { mediaAsText = false }: { mediaAsText?: boolean } = {}): void {
  const messages = body.messages as any[];
  rule(Array.isArray(messages) && messages.length > 0, 'messages must be a non-empty array');
  let seenConversation = false;
  let open: Set<string> | undefined;
  for (const [index, message] of messages.entries()) {
    const where = `messages[${index}] (${message.role})`;
    if (message.role === 'system' || message.role === 'developer') {
      rule(!seenConversation, `${where}: system messages come first`);
    } else {
      seenConversation = true;
    }
    if (message.role === 'tool') {
      rule(open !== undefined, `${where}: a tool message must follow an assistant message with tool_calls`);
      rule(
        open.has(message.tool_call_id),
        `${where}: tool_call_id ${message.tool_call_id} answers no open call`,
      );
      open.delete(message.tool_call_id);
      const content = message.content;
      rule(
        typeof content === 'string' ||
          (Array.isArray(content) && content.every((part) => part.type === 'text')),
        `${where}: a tool message holds text only`,
      );
      const text = typeof content === 'string' ? content : content.map((part: any) => part.text).join('');
      rule(
        mediaAsText || !/data:image\/|iVBORw0KGgo|"type":"image/.test(text),
        `${where}: an image serialized into a tool message`,
      );
      continue;
    }
    rule(
      open === undefined || open.size === 0,
      `${where}: tool calls ${[...(open ?? [])].join(', ')} have no tool message`,
    );
    open = undefined;
    if (message.role === 'assistant') {
      const calls = (message.tool_calls ?? []) as any[];
      if (calls.length > 0) open = new Set(calls.map((call) => call.id));
      rule(
        calls.length > 0 || (message.content != null && message.content !== ''),
        `${where}: an assistant message needs content or tool_calls`,
      );
    } else {
      rule(message.content !== '' && message.content != null, `${where}: empty content`);
      if (Array.isArray(message.content)) rule(message.content.length > 0, `${where}: empty content`);
    }
  }
  rule(
    open === undefined || open.size === 0,
    `tool calls ${[...(open ?? [])].join(', ')} have no tool message`,
  );
}

function textOfOpenAiContent(content: any): { text: string; parts: string[]; images: number } {
  if (typeof content === 'string') return { text: content, parts: [content], images: 0 };
  if (!Array.isArray(content)) return { text: '', parts: [], images: 0 };
  const parts = content.filter((part) => part.type === 'text').map((part) => part.text as string);
  return {
    text: parts.join('\n'),
    parts,
    images: content.filter((part) => part.type === 'image_url').length,
  };
}

export function readOpenAiChat(body: any): ViewMessage[] {
  const view: ViewMessage[] = [];
  const names = new Map<string, string>();
  for (const message of body.messages as any[]) {
    const role = message.role === 'developer' ? 'system' : message.role;
    if (role === 'tool') {
      const text = textOfOpenAiContent(message.content).text;
      view.push({
        role: 'tool',
        text: '',
        toolCalls: [],
        toolResults: [
          {
            id: message.tool_call_id,
            name: names.get(message.tool_call_id),
            text,
            isError: /^\{"error":/.test(text),
            images: 0,
          },
        ],
        images: 0,
      });
      continue;
    }
    const { text, parts, images } = textOfOpenAiContent(message.content);
    const toolCalls = ((message.tool_calls ?? []) as any[]).map((call) => {
      names.set(call.id, call.function.name);
      return { id: call.id as string, name: call.function.name as string };
    });
    view.push({ role, text, parts, toolCalls, toolResults: [], images });
  }
  return view;
}

function openAiChatAnswer({
  text,
  toolCalls = [],
  inputTokens,
}: {
  text?: string;
  toolCalls?: readonly ToolCallReply[];
  inputTokens: number;
}): Reply {
  const calls = toolCalls.map((call) => ({
    id: call.id,
    type: 'function',
    function: { name: call.name, arguments: JSON.stringify(call.input) },
  }));
  return {
    status: 200,
    body: {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'gpt-4o',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: text ?? null,
            ...(calls.length > 0 ? { tool_calls: calls } : {}),
          },
          finish_reason: calls.length > 0 ? 'tool_calls' : 'stop',
        },
      ],
      usage: {
        prompt_tokens: Math.round(inputTokens),
        completion_tokens: 6,
        total_tokens: Math.round(inputTokens) + 6,
      },
    },
  };
}

/** OpenAI's real 400 for a chat prompt over the window (gpt-3.5/4 wording, code `context_length_exceeded`). */
function openAiChatOverflow({ limit, tokens }: { limit: number; tokens: number }): Reply {
  return {
    status: 400,
    body: {
      error: {
        message: `This model's maximum context length is ${limit} tokens. However, your messages resulted in ${tokens} tokens. Please reduce the length of the messages.`,
        type: 'invalid_request_error',
        param: 'messages',
        code: 'context_length_exceeded',
      },
    },
  };
}

// ---------------------------------------------------------------------------------------------
// OpenAI responses

/**
 * OpenAI Responses: every `function_call_output` follows the `function_call` with its `call_id`
 * ("No tool call found for function call output with call_id …"), and every `function_call` has
 * its output ("No tool output found for function call …"); an `item_reference` to a function call
 * this server returned counts as that call. No empty message content.
 */
export function validateOpenAiResponses(
  body: any,
  referencedCalls: ReadonlyMap<string, string> = new Map(),
): void {
  const input = body.input as any[];
  rule(Array.isArray(input) && input.length > 0, 'input must be a non-empty array');
  const calls = new Set<string>();
  const answered = new Set<string>();
  for (const [index, item] of input.entries()) {
    const where = `input[${index}] (${item.type ?? item.role})`;
    if (item.type === 'function_call') {
      calls.add(item.call_id);
    } else if (item.type === 'item_reference') {
      const callId = referencedCalls.get(item.id);
      if (callId !== undefined) calls.add(callId);
    } else if (item.type === 'function_call_output') {
      rule(calls.has(item.call_id), `${where}: no function_call before it with call_id ${item.call_id}`);
      answered.add(item.call_id);
      if (Array.isArray(item.output)) rule(item.output.length > 0, `${where}: empty output`);
    } else if (item.role !== undefined) {
      const content = item.content;
      rule(
        (typeof content === 'string' && content.length > 0) || (Array.isArray(content) && content.length > 0),
        `${where}: empty content`,
      );
    }
  }
  for (const call of calls) rule(answered.has(call), `function_call ${call} has no function_call_output`);
}

export function readOpenAiResponses(body: any): ViewMessage[] {
  const view: ViewMessage[] = [];
  const names = new Map<string, string>();
  const system = body.instructions;
  if (typeof system === 'string' && system.length > 0) {
    view.push({ role: 'system', text: system, toolCalls: [], toolResults: [], images: 0 });
  }
  for (const item of body.input as any[]) {
    if (item.type === 'function_call') {
      names.set(item.call_id, item.name);
      view.push({
        role: 'assistant',
        text: '',
        toolCalls: [{ id: item.call_id, name: item.name }],
        toolResults: [],
        images: 0,
      });
    } else if (item.type === 'function_call_output') {
      const parts =
        typeof item.output === 'string' ? [{ type: 'input_text', text: item.output }] : item.output;
      const text = parts
        .filter((part: any) => part.type === 'input_text')
        .map((part: any) => part.text)
        .join('\n');
      view.push({
        role: 'tool',
        text: '',
        toolCalls: [],
        toolResults: [
          {
            id: item.call_id,
            name: names.get(item.call_id),
            text,
            isError: /^\{"error":/.test(text),
            images: parts.filter((part: any) => part.type === 'input_image').length,
          },
        ],
        images: 0,
      });
    } else if (item.role !== undefined) {
      const parts =
        typeof item.content === 'string' ? [{ type: 'input_text', text: item.content }] : item.content;
      const texts = parts
        .filter((part: any) => part.type === 'input_text' || part.type === 'output_text')
        .map((part: any) => part.text as string);
      view.push({
        role: item.role === 'developer' ? 'system' : item.role,
        text: texts.join('\n'),
        parts: texts,
        toolCalls: [],
        toolResults: [],
        images: parts.filter((part: any) => part.type === 'input_image').length,
      });
    }
  }
  return view;
}

function openAiResponsesAnswer({
  text,
  toolCalls = [],
  inputTokens,
}: {
  text?: string;
  toolCalls?: readonly ToolCallReply[];
  inputTokens: number;
}): Reply {
  const output: unknown[] = [];
  if (text !== undefined) {
    output.push({
      type: 'message',
      role: 'assistant',
      id: 'msg_1',
      status: 'completed',
      content: [{ type: 'output_text', text, annotations: [] }],
    });
  }
  for (const call of toolCalls) {
    output.push({
      type: 'function_call',
      id: `fc_${call.id}`,
      call_id: call.id,
      name: call.name,
      arguments: JSON.stringify(call.input),
      status: 'completed',
    });
  }
  return {
    status: 200,
    body: {
      id: 'resp_1',
      object: 'response',
      created_at: 1_700_000_000,
      status: 'completed',
      model: 'gpt-4o',
      output,
      incomplete_details: null,
      usage: {
        input_tokens: Math.round(inputTokens),
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: 6,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: Math.round(inputTokens) + 6,
      },
    },
  };
}

/** The Responses API's real 400 for an input over the window: it does not state the limit. */
function openAiResponsesOverflow(): Reply {
  return {
    status: 400,
    body: {
      error: {
        message:
          'Your input exceeds the context window of this model. Please adjust your input and try again.',
        type: 'invalid_request_error',
        param: 'input',
        code: 'context_length_exceeded',
      },
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Anthropic messages

/**
 * Anthropic: one top-level `system` (no system role in `messages`); the first message is the
 * user's; roles alternate; no empty content or empty text block; every `tool_use` is answered by a
 * `tool_result` in the next message, and every `tool_result` answers a `tool_use` of the message
 * before it ("tool_result block(s) provided when previous message does not have tool_use block(s)");
 * a user message's tool results come before its other blocks.
 */
export function validateAnthropic(body: any): void {
  const messages = body.messages as any[];
  rule(Array.isArray(messages) && messages.length > 0, 'messages must be a non-empty array');
  rule(messages[0].role === 'user', 'the first message must be the user’s');
  if (body.system !== undefined) {
    rule(typeof body.system === 'string' || Array.isArray(body.system), 'system must be a string or blocks');
  }
  for (const [index, message] of messages.entries()) {
    const where = `messages[${index}] (${message.role})`;
    rule(message.role === 'user' || message.role === 'assistant', `${where}: role must be user or assistant`);
    if (index > 0) rule(message.role !== messages[index - 1].role, `${where}: roles must alternate`);
    const content =
      typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    rule(Array.isArray(content) && content.length > 0, `${where}: empty content`);
    for (const part of content) {
      if (part.type === 'text') rule(part.text.length > 0, `${where}: empty text block`);
    }
    const uses = content.filter((part: any) => part.type === 'tool_use').map((part: any) => part.id);
    const results = content.filter((part: any) => part.type === 'tool_result');
    if (results.length > 0) {
      const previous = messages[index - 1]?.content;
      const called = new Set(
        (Array.isArray(previous) ? previous : [])
          .filter((part: any) => part.type === 'tool_use')
          .map((part: any) => part.id),
      );
      for (const result of results) {
        rule(
          called.has(result.tool_use_id),
          `${where}: tool_result ${result.tool_use_id} answers no tool_use before it`,
        );
      }
      const firstOther = content.findIndex((part: any) => part.type !== 'tool_result');
      const lastResult =
        content.length - 1 - [...content].reverse().findIndex((part: any) => part.type === 'tool_result');
      rule(firstOther === -1 || firstOther > lastResult, `${where}: tool results must come first`);
    }
    if (uses.length > 0) {
      const next = messages[index + 1]?.content;
      const answered = new Set(
        (Array.isArray(next) ? next : [])
          .filter((part: any) => part.type === 'tool_result')
          .map((part: any) => part.tool_use_id),
      );
      for (const id of uses)
        rule(answered.has(id), `${where}: tool_use ${id} has no tool_result in the next message`);
    }
  }
}

function anthropicBlocksText(blocks: any): { text: string; parts: string[]; images: number } {
  if (typeof blocks === 'string') return { text: blocks, parts: [blocks], images: 0 };
  if (!Array.isArray(blocks)) return { text: '', parts: [], images: 0 };
  const parts = blocks.filter((block) => block.type === 'text').map((block) => block.text as string);
  return { text: parts.join('\n'), parts, images: blocks.filter((block) => block.type === 'image').length };
}

export function readAnthropic(body: any): ViewMessage[] {
  const view: ViewMessage[] = [];
  const names = new Map<string, string>();
  if (body.system !== undefined) {
    view.push({
      role: 'system',
      text: anthropicBlocksText(body.system).text,
      toolCalls: [],
      toolResults: [],
      images: 0,
    });
  }
  for (const message of body.messages as any[]) {
    const content =
      typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    const results = content.filter((part: any) => part.type === 'tool_result');
    if (results.length > 0) {
      view.push({
        role: 'tool',
        text: '',
        toolCalls: [],
        toolResults: results.map((result: any) => {
          const { text, images } = anthropicBlocksText(result.content);
          return {
            id: result.tool_use_id,
            name: names.get(result.tool_use_id),
            text,
            isError: result.is_error === true,
            images,
          };
        }),
        images: 0,
      });
    }
    const rest = content.filter((part: any) => part.type !== 'tool_result');
    if (rest.length === 0) continue;
    const toolCalls = rest
      .filter((part: any) => part.type === 'tool_use')
      .map((part: any) => {
        names.set(part.id, part.name);
        return { id: part.id as string, name: part.name as string };
      });
    const { text, parts, images } = anthropicBlocksText(rest);
    view.push({ role: message.role, text, parts, toolCalls, toolResults: [], images });
  }
  return view;
}

function anthropicAnswer({
  text,
  toolCalls = [],
  inputTokens,
}: {
  text?: string;
  toolCalls?: readonly ToolCallReply[];
  inputTokens: number;
}): Reply {
  return {
    status: 200,
    body: {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [
        ...(text === undefined ? [] : [{ type: 'text', text }]),
        ...toolCalls.map((call) => ({ type: 'tool_use', id: call.id, name: call.name, input: call.input })),
      ],
      stop_reason: toolCalls.length > 0 ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: Math.round(inputTokens), output_tokens: 6 },
    },
  };
}

/** Anthropic's real 400 for a prompt over the window. */
function anthropicOverflow({ limit, tokens }: { limit: number; tokens: number }): Reply {
  return {
    status: 400,
    body: {
      type: 'error',
      error: {
        type: 'invalid_request_error',
        message: `prompt is too long: ${tokens} tokens > ${limit} maximum`,
      },
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Google Gemini

/**
 * Gemini: roles are `user` and `model` and alternate, starting with the user; every content has
 * parts and no part is empty; a `functionCall` turn comes right after a user turn and is followed
 * by a user turn with exactly as many `functionResponse` parts, for the same names ("Please ensure
 * that the number of function response parts is equal to the number of function call parts of the
 * function call turn"); a `functionResponse` turn follows a `functionCall` turn.
 */
export function validateGemini(body: any): void {
  const contents = body.contents as any[];
  rule(Array.isArray(contents) && contents.length > 0, 'contents must be a non-empty array');
  if (body.systemInstruction !== undefined) {
    const parts = body.systemInstruction.parts as any[];
    rule(Array.isArray(parts) && parts.length > 0, 'systemInstruction: empty parts');
    for (const part of parts)
      rule(typeof part.text === 'string' && part.text.length > 0, 'systemInstruction: empty text');
  }
  rule(contents[0].role === 'user', 'the first content must be the user’s');
  for (const [index, content] of contents.entries()) {
    const where = `contents[${index}] (${content.role})`;
    rule(content.role === 'user' || content.role === 'model', `${where}: role must be user or model`);
    if (index > 0) rule(content.role !== contents[index - 1].role, `${where}: roles must alternate`);
    rule(Array.isArray(content.parts) && content.parts.length > 0, `${where}: empty parts`);
    for (const part of content.parts) {
      const keys = Object.keys(part).filter((key) => key !== 'thoughtSignature' && part[key] !== undefined);
      rule(keys.length > 0, `${where}: an empty part`);
      if ('text' in part)
        rule(typeof part.text === 'string' && part.text.length > 0, `${where}: an empty text part`);
    }
    const calls = content.parts
      .filter((part: any) => part.functionCall)
      .map((part: any) => part.functionCall.name);
    const responses = content.parts
      .filter((part: any) => part.functionResponse)
      .map((part: any) => part.functionResponse.name);
    if (calls.length > 0) {
      rule(content.role === 'model', `${where}: functionCall outside a model turn`);
      rule(
        contents[index - 1]?.role === 'user',
        `${where}: a function call turn must come right after a user turn`,
      );
      const next = contents[index + 1];
      rule(next !== undefined, `${where}: a function call turn must be followed by its function responses`);
      const answered = next.parts
        .filter((part: any) => part.functionResponse)
        .map((part: any) => part.functionResponse.name);
      rule(
        answered.length === calls.length,
        `${where}: ${calls.length} function call parts but ${answered.length} function response parts in the next turn`,
      );
      rule(
        [...answered].sort().join('\n') === [...calls].sort().join('\n'),
        `${where}: function responses (${answered.join(', ')}) do not match the calls (${calls.join(', ')})`,
      );
    }
    if (responses.length > 0) {
      const previous = contents[index - 1];
      rule(
        previous?.role === 'model' && previous.parts.some((part: any) => part.functionCall),
        `${where}: function responses without a function call turn before them`,
      );
    }
  }
}

export function readGemini(body: any): ViewMessage[] {
  const view: ViewMessage[] = [];
  if (body.systemInstruction !== undefined) {
    view.push({
      role: 'system',
      text: (body.systemInstruction.parts as any[]).map((part) => part.text).join('\n'),
      toolCalls: [],
      toolResults: [],
      images: 0,
    });
  }
  for (const content of body.contents as any[]) {
    const parts = content.parts as any[];
    if (parts.some((part) => part.functionResponse)) {
      // Legacy (pre-Gemini 3) tool results put an image after its response as a top-level
      // inlineData part plus a text part; Gemini 3 nests it in `functionResponse.parts`.
      const results: ViewMessage['toolResults'] = [];
      for (const part of parts) {
        if (part.functionResponse) {
          const { response } = part.functionResponse;
          const value = response.error ?? response.content;
          results.push({
            id: part.functionResponse.id,
            name: part.functionResponse.name,
            text: typeof value === 'string' ? value : JSON.stringify(value),
            isError: response.error !== undefined,
            images: (part.functionResponse.parts ?? []).filter((inner: any) => inner.inlineData).length,
          });
        } else if (part.inlineData && results.length > 0) {
          results.at(-1)!.images++;
        }
      }
      view.push({ role: 'tool', text: '', toolCalls: [], toolResults: results, images: 0 });
      continue;
    }
    const texts = parts
      .filter((part) => typeof part.text === 'string' && part.thought !== true)
      .map((part) => part.text as string);
    view.push({
      role: content.role === 'model' ? 'assistant' : 'user',
      text: texts.join('\n'),
      parts: texts,
      toolCalls: parts
        .filter((part) => part.functionCall)
        .map((part) => ({ id: part.functionCall.id, name: part.functionCall.name })),
      toolResults: [],
      images: parts.filter((part) => part.inlineData).length,
    });
  }
  return view;
}

function geminiAnswer({
  text,
  toolCalls = [],
  inputTokens,
}: {
  text?: string;
  toolCalls?: readonly ToolCallReply[];
  inputTokens: number;
}): Reply {
  return {
    status: 200,
    body: {
      candidates: [
        {
          content: {
            role: 'model',
            parts: [
              ...(text === undefined ? [] : [{ text }]),
              ...toolCalls.map((call) => ({
                functionCall: { id: call.id, name: call.name, args: call.input },
              })),
            ],
          },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: {
        promptTokenCount: Math.round(inputTokens),
        candidatesTokenCount: 6,
        totalTokenCount: Math.round(inputTokens) + 6,
      },
      modelVersion: 'gemini-2.5-flash',
    },
  };
}

/** Gemini's real 400 for a prompt over the window. */
function geminiOverflow({ limit, tokens }: { limit: number; tokens: number }): Reply {
  return {
    status: 400,
    body: {
      error: {
        code: 400,
        message: `The input token count (${tokens}) exceeds the maximum number of tokens allowed (${limit}).`,
        status: 'INVALID_ARGUMENT',
      },
    },
  };
}

// ---------------------------------------------------------------------------------------------

interface Packages {
  sdk: Sdk;
  generation: string;
  createOpenAI: (options: any) => any;
  createAnthropic: (options: any) => any;
  createGoogle: (options: any) => any;
}

const generations: Packages[] = [
  {
    sdk: v3,
    generation: '3',
    createOpenAI: createOpenAI3,
    createAnthropic: createAnthropic3,
    createGoogle: createGoogle3,
  },
  { sdk: v4, generation: '4', createOpenAI, createAnthropic, createGoogle },
];

function targetsOf({
  sdk,
  generation,
  createOpenAI,
  createAnthropic,
  createGoogle,
}: Packages): ProviderTarget[] {
  return [
    {
      name: `${sdk.name} · @ai-sdk/openai ${generation} chat`,
      kind: 'openai-chat',
      sdk,
      basePath: '/v1',
      modelId: 'gpt-4o',
      model: (baseURL, modelId = 'gpt-4o') => createOpenAI({ baseURL, apiKey }).chat(modelId),
      validate: validateOpenAiChat,
      read: readOpenAiChat,
      answer: openAiChatAnswer,
      overflow: openAiChatOverflow,
      statesLimit: true,
    },
    {
      name: `${sdk.name} · @ai-sdk/openai ${generation} responses`,
      kind: 'openai-responses',
      sdk,
      basePath: '/v1',
      modelId: 'gpt-4o',
      model: (baseURL, modelId = 'gpt-4o') => createOpenAI({ baseURL, apiKey }).responses(modelId),
      validate: (body) => validateOpenAiResponses(body),
      read: readOpenAiResponses,
      answer: openAiResponsesAnswer,
      overflow: openAiResponsesOverflow,
      statesLimit: false,
    },
    {
      name: `${sdk.name} · @ai-sdk/anthropic ${generation}`,
      kind: 'anthropic',
      sdk,
      basePath: '/v1',
      modelId: 'claude-sonnet-4-5',
      model: (baseURL, modelId = 'claude-sonnet-4-5') => createAnthropic({ baseURL, apiKey })(modelId),
      validate: validateAnthropic,
      read: readAnthropic,
      answer: anthropicAnswer,
      overflow: anthropicOverflow,
      statesLimit: true,
    },
    {
      name: `${sdk.name} · @ai-sdk/google ${generation}`,
      kind: 'google',
      sdk,
      basePath: '/v1beta',
      modelId: 'gemini-2.5-flash',
      model: (baseURL, modelId = 'gemini-2.5-flash') => createGoogle({ baseURL, apiKey })(modelId),
      validate: validateGemini,
      read: readGemini,
      answer: geminiAnswer,
      overflow: geminiOverflow,
      statesLimit: true,
    },
  ];
}

/** Every provider package of both generations: 4 for ai 6, 4 for ai 7. */
export const providerTargets: ProviderTarget[] = generations.flatMap(targetsOf);
