import { ContextOverflowError as LangChainContextOverflowError } from '@langchain/core/errors';
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { createEstimator } from '@spillway/core';
import { fakeModel } from 'langchain';
import { z } from 'zod/v4';
import { toNeutralMessages } from '../src/convert/to-neutral-messages';

/**
 * A seeded, offline agent session for tests and the benchmark: a real LangChain `fakeModel` that
 * calls a real `read_file` tool with large, varied outputs, and that — like a real provider —
 * rejects a prompt larger than its window with LangChain's `ContextOverflowError`.
 */

const estimator = createEstimator();

/** Estimated tokens of what a model call received (messages only; the same measure everywhere). */
export function promptTokens(messages: readonly BaseMessage[]): number {
  return estimator.countMessages(toNeutralMessages(messages));
}

/** A deterministic pseudo-random generator (mulberry32). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/** The content of `path`: a source-like file whose size depends only on the path and the seed. */
export function fileContent(path: string, seed: number, { minChars = 2000, maxChars = 24_000 } = {}): string {
  let hash = seed;
  for (const character of path) hash = Math.imul(hash ^ character.charCodeAt(0), 2654435761);
  const random = seededRandom(hash);
  const size = Math.floor(minChars + random() * (maxChars - minChars));
  const lines: string[] = [`// ${path}`];
  let length = lines[0]!.length;
  for (let line = 1; length < size; line++) {
    const text = `export const value${line} = computeSomething(${Math.floor(random() * 100_000)}, 'item-${line}'); // step ${line}`;
    lines.push(text);
    length += text.length + 1;
  }
  return lines.join('\n').slice(0, size);
}

/** The session's tool: reads a (generated) file. */
export function createReadFileTool(seed: number, sizes?: { minChars?: number; maxChars?: number }) {
  return tool(async ({ path }: { path: string }) => fileContent(path, seed, sizes), {
    name: 'read_file',
    description: 'Reads a file of the project and returns its content.',
    schema: z.object({ path: z.string().describe('Path of the file') }),
  });
}

/** The user's message of turn `turn`. */
export function userMessage(turn: number): HumanMessage {
  return new HumanMessage(`Turn ${turn}: please read src/module-${turn}.ts and tell me what it exports.`);
}

export interface ScriptedAgentModelOptions {
  /** Prompts above this many tokens (estimated) are rejected with `ContextOverflowError`. */
  contextWindow?: number;
  /** How many calls the model can answer. @default 1000 */
  calls?: number;
  /** Called with every rejected prompt's size. */
  onOverflow?: (tokens: number) => void;
  /** Tool calls without ids (for the id-less path). @default false */
  anonymousToolCalls?: boolean;
}

/**
 * The agent's model: on a user message it calls `read_file` for the file the user named; on a tool
 * result it answers with a short conclusion. A prompt over `contextWindow` gets LangChain's
 * `ContextOverflowError`, as a provider would answer.
 */
export function createScriptedAgentModel({
  contextWindow,
  calls = 1000,
  onOverflow,
  anonymousToolCalls = false,
}: ScriptedAgentModelOptions = {}) {
  const model = fakeModel();
  let callNumber = 0;
  for (let index = 0; index < calls; index++) {
    model.respond((messages: BaseMessage[]) => {
      callNumber++;
      if (contextWindow !== undefined) {
        const tokens = promptTokens(messages);
        if (tokens > contextWindow) {
          onOverflow?.(tokens);
          return new LangChainContextOverflowError(
            `prompt is too long: ${tokens} tokens > ${contextWindow} maximum (context_length_exceeded)`,
          );
        }
      }
      const last = messages[messages.length - 1];
      if (last !== undefined && ToolMessage.isInstance(last)) {
        const firstLine = String(last.content).split('\n', 1)[0];
        return new AIMessage({
          content: `The file ${firstLine?.replace('// ', '')} exports ${String(last.content).split('\n').length - 1} values.`,
          usage_metadata: {
            input_tokens: promptTokens(messages),
            output_tokens: 20,
            total_tokens: promptTokens(messages) + 20,
          },
        });
      }
      const text = last === undefined ? '' : String(last.content);
      const match = /src\/module-(\d+)\.ts/.exec(text);
      const turn = match?.[1] ?? String(callNumber);
      return new AIMessage({
        content: '',
        tool_calls: [
          {
            name: 'read_file',
            args: { path: `src/module-${turn}.ts` },
            ...(anonymousToolCalls ? {} : { id: `call-${turn}-${callNumber}` }),
            type: 'tool_call',
          },
        ],
      });
    });
  }
  return model;
}

/** A summary model: answers every request with a short summary naming what it saw. */
export function createSummaryModel({ calls = 1000 } = {}) {
  const model = fakeModel();
  for (let index = 0; index < calls; index++) {
    model.respond((messages: BaseMessage[]) => {
      const text = messages.map((message) => String(message.text)).join('\n');
      const files = [...new Set(text.match(/src\/module-\d+\.ts/g) ?? [])];
      return new AIMessage(
        `The user asked to read ${files.length} files (${files.join(', ')}). Each was read with read_file and its exports were reported.`,
      );
    });
  }
  return model;
}

/**
 * Every tool message in `messages` follows the AI message that called it, and every call is answered
 * before the next message. Calls without ids are matched by count (their results carry no id either).
 */
export function toolPairsIntact(messages: readonly BaseMessage[]): boolean {
  const open = new Map<string, number>();
  let openCount = 0;
  for (const message of messages) {
    if (AIMessage.isInstance(message)) {
      if (openCount > 0) return false; // a call left without its result
      for (const call of message.tool_calls ?? []) {
        open.set(call.id ?? '', (open.get(call.id ?? '') ?? 0) + 1);
        openCount++;
      }
    } else if (ToolMessage.isInstance(message)) {
      const id = message.tool_call_id ?? '';
      const count = open.get(id) ?? 0;
      if (count === 0) return false; // an orphan result
      open.set(id, count - 1);
      openCount--;
    } else if (openCount > 0) return false;
  }
  return openCount === 0;
}

/**
 * Whether `messages` open with the user and alternate user / assistant turns, tool results counting
 * as the user's (what Bedrock's Converse API requires; Anthropic and Google want the user first).
 * System messages are not part of the conversation and must not be there.
 */
export function rolesAlternate(messages: readonly BaseMessage[]): boolean {
  let expected: 'user' | 'assistant' = 'user';
  for (const message of messages) {
    const role = AIMessage.isInstance(message)
      ? 'assistant'
      : HumanMessage.isInstance(message) || ToolMessage.isInstance(message)
        ? 'user'
        : 'other';
    if (role === 'other') return false;
    if (role === expected) expected = expected === 'user' ? 'assistant' : 'user';
    // Consecutive tool results (one per call) and results followed by the next call are one turn.
    else if (!(role === 'user' && ToolMessage.isInstance(message))) return false;
  }
  return true;
}
