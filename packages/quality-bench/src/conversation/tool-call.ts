import type { ToolCallPart, ToolResultPart } from 'ai';
import type { SeededRandom } from '../random/seeded-random';
import { pngBase64, type ToolOutputKind, toolOutput, words } from './tool-outputs';
import { SERVICES } from './vocabulary';

type ToolName =
  | 'read_file'
  | 'run_command'
  | 'http_get'
  | 'grep'
  | 'fetch_page'
  | 'screenshot'
  | 'encode_file';

const TOOL_FOR_KIND: Record<ToolOutputKind, ToolName> = {
  source: 'read_file',
  log: 'run_command',
  json: 'http_get',
  grep: 'grep',
  page: 'fetch_page',
  base64: 'encode_file',
};

/**
 * One tool call and its result. `kind` forces the kind of output (a needle or an attack must sit
 * in one); `inserts` are lines placed inside the output.
 */
export function toolCall(
  random: SeededRandom,
  toolCallId: string,
  kind: ToolOutputKind | undefined,
  inserts: readonly string[],
): { call: ToolCallPart; result: ToolResultPart } {
  let chosen: ToolOutputKind | 'screenshot';
  if (kind !== undefined) chosen = kind;
  else {
    const roll = random.next();
    chosen =
      roll < 0.3
        ? 'source'
        : roll < 0.5
          ? 'log'
          : roll < 0.65
            ? 'json'
            : roll < 0.77
              ? 'grep'
              : roll < 0.89
                ? 'page'
                : roll < 0.95
                  ? 'screenshot'
                  : 'base64';
  }
  const service = random.pick(SERVICES);
  if (chosen === 'screenshot') {
    const url = `https://app.example.com/${service}/${random.token(5)}`;
    const image = pngBase64(random, 1280, 800, random.integer(20_000, 40_000));
    return {
      call: { type: 'tool-call', toolCallId, toolName: 'screenshot', input: { url } },
      result: {
        type: 'tool-result',
        toolCallId,
        toolName: 'screenshot',
        output: {
          type: 'content',
          value: [
            { type: 'text', text: `Screenshot of ${url}` },
            { type: 'file', mediaType: 'image/png', data: { type: 'data', data: image } },
          ],
        },
      },
    };
  }
  const big = random.chance(0.1);
  const size = {
    source: big ? random.integer(15_000, 40_000) : random.integer(1_500, 8_000),
    log: big ? random.integer(20_000, 50_000) : random.integer(2_000, 10_000),
    json: random.integer(1_000, 6_000),
    grep: random.integer(300, 2_000),
    page: random.integer(3_000, 12_000),
    base64: random.integer(4_000, 12_000),
  }[chosen];
  const toolName = TOOL_FOR_KIND[chosen];
  const input = {
    read_file: {
      path: `src/${service}/${random.pick(['worker', 'handler', 'client', 'store', 'config'])}.ts`,
    },
    run_command: { command: `pnpm --filter ${service} test -- --reporter verbose` },
    http_get: { url: `https://api.example.com/v2/${service}/items?page=${random.integer(1, 40)}` },
    grep: { pattern: words(random, 2) },
    fetch_page: { url: `https://docs.example.com/${service}/${random.token(6)}` },
    encode_file: { path: `assets/${service}-${random.token(4)}.png` },
  }[toolName as Exclude<ToolName, 'screenshot'>];
  const text = toolOutput(random, chosen, size, inserts);
  return {
    call: { type: 'tool-call', toolCallId, toolName, input },
    result: { type: 'tool-result', toolCallId, toolName, output: { type: 'text', value: text } },
  };
}
