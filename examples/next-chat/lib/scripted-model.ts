import type { LanguageModel } from 'ai';

/** An AI SDK 6 model object (language model specification v3). */
type LanguageModelV3 = Extract<LanguageModel, { specificationVersion: 'v3' }>;
type CallOptions = Parameters<LanguageModelV3['doStream']>[0];
type Prompt = CallOptions['prompt'];
type StreamPart =
  Awaited<ReturnType<LanguageModelV3['doStream']>>['stream'] extends ReadableStream<infer Part>
    ? Part
    : never;
type Step = { text: string } | { toolName: 'read_file' | 'fetch_page' | 'screenshot'; input: object };

const URL_PATTERN = /https?:\/\/[\w./?=&%-]+/;
const PATH_PATTERN = /\b[\w-]+(?:\/[\w.-]+)*\.(?:ts|tsx|js|json|md|css)\b/;

function lastUserText(prompt: Prompt): string {
  for (let index = prompt.length - 1; index >= 0; index--) {
    const message = prompt[index]!;
    if (message.role !== 'user') continue;
    return message.content.map((part) => (part.type === 'text' ? part.text : '')).join(' ');
  }
  return '';
}

/** What a tool-using assistant would do next, decided from the prompt alone. */
function nextStep(prompt: Prompt): Step {
  const last = prompt.at(-1);
  if (last?.role === 'tool') {
    const result = last.content.find((part) => part.type === 'tool-result');
    const name = result?.type === 'tool-result' ? result.toolName : 'the tool';
    const done: Record<string, string> = {
      read_file:
        'I read the file: the handlers all route through `route()`, and none of them swallows errors.',
      fetch_page: 'I read the page: the deploy pipeline now caches build layers, and rollbacks got faster.',
      screenshot: 'I looked at the screenshot: the header, the sidebar and the cards are laid out correctly.',
    };
    // Agents explain what they found at length: prose that no tool-output limit shortens, so the
    // conversation has to be summarized.
    return { text: `${done[name] ?? `Done with ${name}.`}\n\n${analysis(prompt.length)}` };
  }
  const request = lastUserText(prompt);
  const url = request.match(URL_PATTERN)?.[0];
  const path = url === undefined ? request.match(PATH_PATTERN)?.[0] : undefined;
  if (url !== undefined && /screenshot/i.test(request)) return { toolName: 'screenshot', input: { url } };
  if (url !== undefined) return { toolName: 'fetch_page', input: { url } };
  if (path !== undefined) return { toolName: 'read_file', input: { path } };
  return {
    text: 'Ask me to read a file (e.g. "read src/app.ts"), fetch a page or take a screenshot of one.',
  };
}

const FINDINGS = [
  'The request handler validates its input before it touches the database, and every branch returns a typed response.',
  'Errors from the connection pool are retried twice with a jittered back-off, then surfaced with the query that failed.',
  'The configuration is read once at start-up; a missing variable stops the process with a message naming it.',
  'Logging goes through one structured logger, so request ids appear on every line a request produces.',
  'The tests cover the happy path and the timeout path, but not a pool that is exhausted under load.',
  'Two helpers duplicate the same date parsing; they could share the one in src/util/time.ts.',
];

/** A few paragraphs of findings (about 2,500 characters), varied by `seed`. */
function analysis(seed: number): string {
  const paragraphs: string[] = [];
  for (let index = 0; index < 4; index++) {
    const sentences = FINDINGS.map((_, offset) => FINDINGS[(seed + index + offset) % FINDINGS.length]!);
    paragraphs.push(`${index + 1}. ${sentences.join(' ')}`);
  }
  return paragraphs.join('\n\n');
}

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** The text in pieces of a few words, as a model streams it. */
function chunks(text: string): string[] {
  const words = text.split(/(?<= )/);
  const pieces: string[] = [];
  for (let index = 0; index < words.length; index += 6) pieces.push(words.slice(index, index + 6).join(''));
  return pieces;
}

/**
 * The offline model: a deterministic stand-in for a tool-using chat model. It reads only the prompt
 * it is given (so whatever Spillway did to the prompt is what it sees), calls the tool the latest
 * request needs, then answers; it streams its answer word by word like a real model.
 */
export function scriptedModel(): LanguageModelV3 {
  let calls = 0;
  return {
    specificationVersion: 'v3',
    provider: 'scripted',
    modelId: 'scripted-agent',
    supportedUrls: {},
    async doGenerate() {
      throw new Error('The scripted model only streams.');
    },
    async doStream({ prompt }) {
      calls++;
      const step = nextStep(prompt);
      const id = `text-${calls}`;
      const parts: StreamPart[] =
        'text' in step
          ? [
              { type: 'text-start', id },
              ...chunks(step.text).map((delta): StreamPart => ({ type: 'text-delta', id, delta })),
              { type: 'text-end', id },
            ]
          : [
              {
                type: 'tool-call',
                toolCallId: `call-${calls}`,
                toolName: step.toolName,
                input: JSON.stringify(step.input),
              },
            ];
      parts.push({
        type: 'finish',
        finishReason: { unified: 'text' in step ? 'stop' : 'tool-calls', raw: undefined },
        usage: {
          inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: parts.length, text: parts.length, reasoning: undefined },
        },
      });
      return {
        stream: new ReadableStream<StreamPart>({
          async start(controller) {
            controller.enqueue({ type: 'stream-start', warnings: [] });
            for (const part of parts) {
              controller.enqueue(part);
              if (part.type === 'text-delta') await sleep(8);
            }
            controller.close();
          },
        }),
      };
    },
  };
}
