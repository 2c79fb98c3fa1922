/**
 * The offline model: `MockLanguageModelV4` from `ai/test` with a deterministic script. Given the
 * prompt it received, it either calls the tool the latest user request needs or, after a tool
 * result, answers in text. It reads only the prompt, so whatever Spillway did to the prompt is what
 * it sees.
 */
import { MockLanguageModelV4 } from 'ai/test';

type Prompt = Parameters<MockLanguageModelV4['doStream']>[0]['prompt'];
type StreamPart =
  Awaited<ReturnType<MockLanguageModelV4['doStream']>>['stream'] extends ReadableStream<infer Part>
    ? Part
    : never;
type Step = { text: string } | { toolName: string; input: unknown };

const URL_PATTERN = /https?:\/\/[\w./?=&-]+/;
const PATH_PATTERN = /src\/[\w./-]+\.ts/;

function lastUserText(prompt: Prompt): string {
  for (let index = prompt.length - 1; index >= 0; index--) {
    const message = prompt[index]!;
    if (message.role !== 'user') continue;
    return message.content.map((part) => (part.type === 'text' ? part.text : '')).join(' ');
  }
  return '';
}

function nextStep(prompt: Prompt): Step {
  const last = prompt.at(-1);
  const request = lastUserText(prompt);
  if (last?.role === 'tool') {
    const result = last.content.find((part) => part.type === 'tool-result');
    const toolName = result?.type === 'tool-result' ? result.toolName : 'tool';
    return {
      text: `Done with ${toolName}: ${request.replace(/^Turn \d+: /, '').slice(0, 80)} — looks fine, no changes needed.`,
    };
  }
  const url = request.match(URL_PATTERN)?.[0];
  const path = request.match(PATH_PATTERN)?.[0];
  if (request.includes('screenshot') && url) return { toolName: 'screenshot', input: { url } };
  if (url) return { toolName: 'fetch_page', input: { url } };
  if (path) return { toolName: 'read_file', input: { path } };
  return { text: 'Understood.' };
}

/** A deterministic stand-in for a chat model, streaming like a real one. */
export function scriptedModel(): MockLanguageModelV4 {
  let calls = 0;
  return new MockLanguageModelV4({
    provider: 'scripted',
    modelId: 'scripted-agent',
    doStream: async ({ prompt }) => {
      calls++;
      const step = nextStep(prompt);
      const finish = {
        type: 'finish' as const,
        finishReason: {
          unified: 'text' in step ? ('stop' as const) : ('tool-calls' as const),
          raw: undefined,
        },
        usage: {
          inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 20, text: 20, reasoning: undefined },
        },
      };
      const chunks: StreamPart[] =
        'text' in step
          ? [
              { type: 'text-start' as const, id: `t${calls}` },
              { type: 'text-delta' as const, id: `t${calls}`, delta: step.text },
              { type: 'text-end' as const, id: `t${calls}` },
            ]
          : [
              {
                type: 'tool-call' as const,
                toolCallId: `call-${calls}`,
                toolName: step.toolName,
                input: JSON.stringify(step.input),
              },
            ];
      return {
        stream: new ReadableStream({
          start(controller) {
            controller.enqueue({ type: 'stream-start', warnings: [] });
            for (const chunk of chunks) controller.enqueue(chunk);
            controller.enqueue(finish);
            controller.close();
          },
        }),
      };
    },
  });
}
