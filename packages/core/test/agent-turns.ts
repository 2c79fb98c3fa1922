import type { ImagePart, Message, ToolCallPart, ToolResultPart } from '../src/message/message';
import { fileContent, pngBase64, prose, seededRandom } from './conversation-fixtures';

/** Options of {@link agentSession}. */
export interface AgentSessionOptions {
  seed: number;
  /** Finished user turns before the current one. */
  historyTurns: number;
  /** Tool steps of the turn in progress (after the latest user message). */
  currentSteps: number;
  /** Largest tool result, in characters (sizes are drawn up to it). */
  maxResultChars: number;
  /** Parallel calls per step, at most. */
  maxParallel?: number;
  /** Chance that a tool result carries a screenshot. */
  imageRate?: number;
  /** Chance that prose is CJK rather than English. */
  cjkRate?: number;
  /** Characters of the latest user message (its own text is never cut). */
  userChars?: number;
  /** Attach a screenshot to the latest user message. */
  userImage?: boolean;
  /** End the current turn with an assistant answer (a finished turn) instead of a tool result. */
  answered?: boolean;
  /** Names the current turn in tool inputs (paths), so sessions stitched together differ. */
  turnLabel?: number;
}

const CJK = '数据库连接超时请检查配置文件中的端口设置并重新启动服务器日志显示错误代码';

function cjkProse(random: () => number, chars: number): string {
  let out = '';
  while (out.length < chars) out += CJK[Math.floor(random() * CJK.length)];
  return out;
}

function blob(random: () => number, chars: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  let out = '';
  while (out.length < chars) out += alphabet[Math.floor(random() * 64)];
  return out;
}

/**
 * A generated agent session the way real frameworks hand it over: a system prompt, finished turns
 * (user ask, assistant tool calls — sometimes parallel — their results, an answer), then the turn in
 * progress: the latest user message and the assistant's tool steps since. Results range from a line
 * to `maxResultChars` (source, logs, JSON, base64, CJK), some with screenshots.
 */
export function agentSession({
  seed,
  historyTurns,
  currentSteps,
  maxResultChars,
  maxParallel = 3,
  imageRate = 0.15,
  cjkRate = 0.2,
  userChars = 200,
  userImage = false,
  answered = false,
  turnLabel,
}: AgentSessionOptions): { messages: Message[]; turnStart: number; userMessage: Message } {
  const random = seededRandom(seed);
  const pick = (max: number) => Math.floor(random() * max);
  const text = (chars: number) =>
    random() < cjkRate
      ? cjkProse(random, chars)
      : prose(random, Math.max(1, Math.ceil(chars / 6))).slice(0, chars);
  const resultText = (chars: number, path: string) => {
    switch (pick(4)) {
      case 0:
        return fileContent(random, chars, path);
      case 1:
        return JSON.stringify({
          path,
          rows: Array.from({ length: Math.ceil(chars / 60) }, (_, i) => ({ i, v: pick(1e6) })),
        }).slice(0, chars);
      case 2:
        return blob(random, chars);
      default:
        return text(chars);
    }
  };
  const messages: Message[] = [
    { role: 'system', content: `You are agent ${seed}. Follow the user's rules.` },
  ];
  let callId = 0;
  const steps = (count: number, turn: number) => {
    for (let step = 0; step < count; step++) {
      const parallel = 1 + pick(maxParallel);
      const calls: ToolCallPart[] = [];
      for (let index = 0; index < parallel; index++) {
        calls.push({
          type: 'tool-call',
          toolCallId: `call_${seed}_${callId++}`,
          toolName: ['read_file', 'run_tests', 'fetch', 'screenshot'][pick(4)]!,
          input: { path: `src/t${turn}/s${step}/f${index}.ts` },
        });
      }
      messages.push({ role: 'assistant', content: [{ type: 'text', text: `Step ${step}.` }, ...calls] });
      const results: ToolResultPart[] = calls.map((call) => {
        const chars = Math.floor(random() ** 3 * maxResultChars) + 20;
        const body = resultText(chars, String((call.input as { path: string }).path));
        const image: ImagePart | undefined =
          random() < imageRate
            ? {
                type: 'image',
                data: pngBase64(800 + pick(1200), 600 + pick(800), 1024),
                mediaType: 'image/png',
              }
            : undefined;
        return {
          type: 'tool-result',
          toolCallId: call.toolCallId,
          toolName: call.toolName,
          content: image ? [{ type: 'text', text: body }, image] : body,
        };
      });
      // Parallel results arrive in one tool message, or one message each.
      if (random() < 0.5) messages.push({ role: 'tool', content: results });
      else for (const result of results) messages.push({ role: 'tool', content: [result] });
    }
  };
  for (let turn = 0; turn < historyTurns; turn++) {
    messages.push({
      role: 'user',
      content: `Turn ${turn}: ${text(40 + pick(300))} (ticket T-${seed}-${turn})`,
    });
    steps(pick(3), turn);
    messages.push({ role: 'assistant', content: text(30 + pick(400)) });
  }
  const turnStart = messages.length;
  const ask = `Now, for ticket NOW-${seed}: ${text(userChars)}`;
  const userMessage: Message = userImage
    ? {
        role: 'user',
        content: [
          { type: 'text', text: ask },
          { type: 'image', data: pngBase64(1280, 800, 4096), mediaType: 'image/png' },
        ],
      }
    : { role: 'user', content: ask };
  messages.push(userMessage);
  steps(currentSteps, turnLabel ?? historyTurns);
  if (answered) messages.push({ role: 'assistant', content: text(100) });
  return { messages, turnStart, userMessage };
}
