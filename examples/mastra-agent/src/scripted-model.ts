/**
 * The offline model: the AI SDK's `MockLanguageModelV3` (from `ai/test`) scripted as a coding
 * agent. It reads only the request it receives — the latest user message says which files to read;
 * the tool results after it say whether they were read — so what it does depends on what Spillway
 * sent. Like a provider, it counts every request and rejects one over the window.
 */
import { createEstimator } from '@spillway/core';
import { APICallError } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';

type Part = { type: string; [key: string]: unknown };
type PromptMessage = { role: string; content: string | Part[] };

const estimator = createEstimator();

/** Tokens of a request as the provider would count them (text, tool definitions). */
function requestTokens(prompt: readonly PromptMessage[], tools: unknown): number {
  return estimator.countText(JSON.stringify(tools ?? [])) + estimator.countText(JSON.stringify(prompt));
}

const partsOf = (message: PromptMessage): Part[] =>
  typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
const textOf = (message: PromptMessage) =>
  partsOf(message)
    .filter((part) => part.type === 'text')
    .map((part) => String(part.text))
    .join('\n');

/** What the model saw in one request. */
export interface SeenRequest {
  tokens: number;
  /** The latest user message's own text (its last text part). */
  ask: string;
  /** Tool calls after the latest user message (the run in progress), with whether their result is there. */
  run: { id: string; answered: boolean }[];
}

export function scriptedModel({ contextWindow }: { contextWindow: number }) {
  const seen: SeenRequest[] = [];
  let counter = 0;
  const usage = (input: number) => ({
    inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 30, text: 30, reasoning: undefined },
  });

  const respond = (prompt: PromptMessage[], tools: unknown) => {
    const system = prompt.find((message) => message.role === 'system');
    if (
      (!Array.isArray(tools) || tools.length === 0) &&
      /summar/i.test(textOf(system ?? { role: '', content: '' }))
    ) {
      // A summary request from Spillway: name the files and tickets the transcript mentions.
      const transcript = prompt.map(textOf).join('\n');
      const files = [...new Set(transcript.match(/src\/[\w/-]+\.ts/g) ?? [])];
      return { text: `The user had these files read and reviewed: ${files.join(', ')}.`, tokens: 0 };
    }
    const tokens = requestTokens(prompt, tools);
    const userIndex = prompt.map((message) => message.role).lastIndexOf('user');
    // The user's own words: the last text of the message (a note the engine left when it dropped
    // old turns goes before them, as the message's first parts).
    const ask =
      userIndex < 0
        ? ''
        : String(
            partsOf(prompt[userIndex]!)
              .filter((part) => part.type === 'text')
              .at(-1)?.text ?? '',
          );
    const after = prompt.slice(userIndex + 1).flatMap(partsOf);
    const results = new Map(
      after.filter((part) => part.type === 'tool-result').map((part) => [String(part.toolCallId), part]),
    );
    const calls = after.filter((part) => part.type === 'tool-call');
    seen.push({
      tokens,
      ask,
      run: calls.map((call) => ({
        id: String(call.toolCallId),
        answered: results.has(String(call.toolCallId)),
      })),
    });
    if (tokens > contextWindow) {
      const message = `prompt is too long: ${tokens} tokens > ${contextWindow} maximum`;
      throw new APICallError({
        message,
        url: 'https://provider.test',
        requestBodyValues: {},
        statusCode: 400,
        isRetryable: false,
      });
    }
    const recall = /exactly what (src\/[\w/-]+\.ts) holds/.exec(ask)?.[1];
    if (recall !== undefined) return readBack(recall, after, tokens);
    const files = ask.match(/src\/[\w/-]+\.ts/g) ?? [];
    if (calls.length === 0 && files.length > 0) {
      return {
        calls: files.map((path) => ({ toolName: 'read_file', input: { path } })),
        tokens,
      };
    }
    const sizes = calls.map((call) => {
      const output = results.get(String(call.toolCallId))?.output as { value?: unknown } | undefined;
      return `${(call.input as { path?: string }).path}: ${String(output?.value ?? '').length} characters`;
    });
    // Agents explain what they found at length: prose no tool-output limit shortens, so the
    // dialogue itself fills the window after a few turns and is summarized.
    const notes = calls.map((call, index) => review(String((call.input as { path?: string }).path), index));
    return { text: `Reviewed ${sizes.join('; ')}. Nothing else changed.\n\n${notes.join('\n\n')}`, tokens };
  };

  /** Searches the cut material for the file with `spillway_recall`, reads it page by page, answers with it. */
  const readBack = (path: string, after: Part[], tokens: number) => {
    const answers = after
      .filter((part) => part.type === 'tool-result' && part.toolName === 'spillway_recall')
      .map((part) => String((part.output as { value?: unknown }).value ?? ''));
    if (answers.length === 0)
      return { calls: [{ toolName: 'spillway_recall', input: { search: `// ${path}` } }], tokens };
    const [search, ...pages] = answers;
    const ref = /"ref":"(t\.[^"]+)"/.exec(search!)?.[1];
    if (ref === undefined) return { text: `I could not find ${path}.`, tokens };
    const last = pages.at(-1);
    const next = last === undefined ? '0' : /"offset":(\d+)\}\]$/.exec(last)?.[1];
    if (next !== undefined)
      return { calls: [{ toolName: 'spillway_recall', input: { ref, offset: Number(next) } }], tokens };
    return {
      text: pages.map((page) => page.slice(page.indexOf('\n') + 1, page.lastIndexOf('\n'))).join(''),
      tokens,
    };
  };

  const content = (answer: ReturnType<typeof respond>) =>
    'calls' in answer && answer.calls !== undefined
      ? answer.calls.map((call) => ({
          type: 'tool-call' as const,
          toolCallId: `call-${++counter}`,
          toolName: call.toolName,
          input: JSON.stringify(call.input),
        }))
      : [{ type: 'text' as const, text: String(answer.text) }];

  const model = new MockLanguageModelV3({
    doGenerate: async ({ prompt, tools }) => {
      const answer = respond(prompt as PromptMessage[], tools);
      const parts = content(answer);
      const finish = parts[0]?.type === 'tool-call' ? 'tool-calls' : 'stop';
      return {
        content: parts,
        finishReason: { unified: finish, raw: finish },
        usage: usage(answer.tokens),
        warnings: [],
      };
    },
    doStream: async ({ prompt, tools }) => {
      const answer = respond(prompt as PromptMessage[], tools);
      const parts = content(answer);
      const finish = parts[0]?.type === 'tool-call' ? 'tool-calls' : 'stop';
      const chunks = parts.flatMap((part): unknown[] =>
        part.type === 'text'
          ? [
              { type: 'text-start' as const, id: 't' },
              { type: 'text-delta' as const, id: 't', delta: part.text },
              { type: 'text-end' as const, id: 't' },
            ]
          : [part],
      );
      const stream = new ReadableStream<unknown>({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(chunk);
          controller.enqueue({
            type: 'finish',
            finishReason: { unified: finish, raw: finish },
            usage: usage(answer.tokens),
          });
          controller.close();
        },
      });
      return { stream: stream as never };
    },
  });
  return { model, seen };
}

const FINDINGS = [
  'Its handlers validate their input before they touch the database, and every branch returns a typed response.',
  'Errors from the connection pool are retried twice with a jittered back-off, then surfaced with the query that failed.',
  'Configuration is read once at start-up; a missing variable stops the process with a message naming it.',
  'Logging goes through one structured logger, so request ids appear on every line a request produces.',
  'The tests cover the happy path and the timeout path, but not a pool that is exhausted under load.',
  'Two helpers duplicate the same date parsing and could share one.',
];

/** What the agent writes about one file it read (about 450 characters), varied by `seed`. */
function review(path: string, seed: number): string {
  const sentences = [0, 1, 2, 3].map((offset) => FINDINGS[(path.length + seed + offset) % FINDINGS.length]!);
  return `${path}: ${sentences.join(' ')}`;
}
