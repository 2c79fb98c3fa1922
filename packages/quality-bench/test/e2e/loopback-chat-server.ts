import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PROBE_INSTRUCTION } from '../../src/probes/create-prober';

/** A chat message as the OpenAI chat completions API receives it. */
interface ChatMessage {
  role: string;
  content?: string | { type: string; text?: string }[] | null;
  tool_calls?: { function: { arguments: string } }[];
}

const text = (message: ChatMessage) =>
  typeof message.content === 'string'
    ? message.content
    : (message.content ?? []).map((part) => part.text ?? '').join('\n');

const words = (value: string) =>
  new Set((value.toLowerCase().match(/[a-z0-9]{4,}/g) ?? []).filter((word) => !STOP.has(word)));
const STOP = new Set(
  'which what where when does from with that this have your answer only conversation quote given never said stated sentences exactly names numbers paths'.split(
    ' ',
  ),
);

/**
 * What the loopback model answers, deterministically, from the prompt alone:
 * - a probe (the last user message ends with the probe instruction): the line of the earlier
 *   messages that shares most words with the question (at least two), else "not stated";
 * - a grading request: CORRECT when the answer holds every expected word, else WRONG;
 * - anything else (a summary request): the first 30 lines of 4 words or more, at most 3,000
 *   characters.
 */
export function loopbackAnswer(messages: readonly ChatMessage[]): string {
  const last = messages.at(-1);
  const lastText = last === undefined ? '' : text(last);
  if (lastText.includes(PROBE_INSTRUCTION)) {
    const question = words(lastText.replace(PROBE_INSTRUCTION, ''));
    let best = '';
    let score = 1;
    for (const message of messages.slice(0, -1)) {
      for (const line of text(message).split(/\n|(?<=[.!?])\s+/)) {
        let shared = 0;
        for (const word of words(line)) if (question.has(word)) shared++;
        if (shared > score) {
          best = line.trim();
          score = shared;
        }
      }
    }
    return best === '' ? 'not stated' : best;
  }
  if (lastText.includes('Reply with one word: CORRECT or WRONG.')) {
    const expected = /A right answer conveys: (.*)/.exec(lastText)?.[1]?.split(', ') ?? [];
    const given = /The answer given: "([\s\S]*)"/.exec(lastText)?.[1] ?? '';
    return expected.every((word) => given.toLowerCase().includes(word.toLowerCase())) ? 'CORRECT' : 'WRONG';
  }
  const lines = messages
    .flatMap((message) => text(message).split('\n'))
    .filter((line) => line.trim().split(/\s+/).length >= 4)
    .slice(0, 30);
  return lines.join('\n').slice(0, 3000) || 'Nothing to summarize.';
}

/** A running loopback server and what it was asked. */
export interface LoopbackChatServer {
  /** The base URL to give `openai-compatible:<baseURL>#<model>`. */
  baseURL: string;
  /** Requests answered, by kind. */
  counts: { probes: number; grades: number; other: number };
  close(): Promise<void>;
}

/**
 * An OpenAI-compatible chat completions server on 127.0.0.1 (node:http) that answers every
 * `POST /v1/chat/completions` with {@link loopbackAnswer}: what the real-model mode is tested
 * against (no network beyond the machine).
 */
export async function startLoopbackChatServer(): Promise<LoopbackChatServer> {
  const counts = { probes: 0, grades: 0, other: 0 };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method !== 'POST' || !request.url?.endsWith('/chat/completions')) {
        response.writeHead(404).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        model: string;
        messages: ChatMessage[];
      };
      const lastText = text(body.messages.at(-1) ?? { role: 'user', content: '' });
      if (lastText.includes(PROBE_INSTRUCTION)) counts.probes++;
      else if (lastText.includes('CORRECT or WRONG')) counts.grades++;
      else counts.other++;
      const content = loopbackAnswer(body.messages);
      const promptTokens = Math.ceil(JSON.stringify(body.messages).length / 4);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          id: `chatcmpl-${counts.probes + counts.grades + counts.other}`,
          object: 'chat.completion',
          created: 1_700_000_000,
          model: body.model,
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
          usage: {
            prompt_tokens: promptTokens,
            completion_tokens: Math.ceil(content.length / 4),
            total_tokens: promptTokens + Math.ceil(content.length / 4),
          },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    counts,
    close: () =>
      new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
