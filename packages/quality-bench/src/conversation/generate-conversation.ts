import type {
  AssistantContent,
  ModelMessage,
  ToolCallPart,
  ToolModelMessage,
  ToolResultPart,
  UserModelMessage,
} from 'ai';
import { type SeededRandom, seededRandom } from '../random/seeded-random';
import type { Conversation, ModelCall, Needle, NeedleKind, Turn } from './conversation';
import {
  constraint,
  decision,
  EVICTION_ATTACK,
  implicitFact,
  PEOPLE_AND_TEAMS,
  supersededSetting,
  toolIdentifier,
  userIdentifier,
} from './needle-text';
import { pngBase64, sentence, type ToolOutputKind, toolOutput, words } from './tool-outputs';
import { ADJECTIVES, CJK_ASKS, NOUNS, RULES, SERVICES, SETTINGS, SYMPTOMS, VERBS } from './vocabulary';

/** Options of {@link generateConversation}. */
export interface GenerateConversationOptions {
  /** Seeds every choice: the same seed and turn count give the same conversation, byte for byte. */
  seed: number;
  /** User turns, 4 to 2,000 (the benchmark uses 50–1,000). */
  turns: number;
}

/** A superseded setting needs three distinct turns before the last one. */
const MIN_TURNS = 4;
const MAX_TURNS = 2000;

/** The system prompt every conversation starts with. */
export const SYSTEM_PROMPT =
  'You are a senior engineer pairing with the user on a payments platform. Use the tools to read code, run commands and fetch pages; answer concisely.';

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

/** A needle's text waiting for its turn. */
interface Planned {
  needle: Needle;
  /** Which placement of the needle this is. */
  placement: number;
  text: string;
  where: 'user' | 'assistant' | 'tool';
  /** For `where: 'tool'`: the kind of output it sits in. */
  toolKind?: 'source' | 'log' | 'json' | 'page';
  /** Put it deep inside a long user message (implicit facts). */
  buried?: boolean;
}

/**
 * Generates a seeded agent conversation: a user asking, an assistant answering, single and
 * parallel tool calls, multi-step turns, big results (source files, logs, JSON, web pages, base64),
 * screenshots and pasted images, CJK text, and needles planted at known turns (see {@link Needle}).
 * Needles are planted in turns `0 … turns - 2`, so the final turn can ask about all of them.
 *
 * @throws {RangeError} when `turns` is outside 4–2,000 or `seed` is not an integer.
 */
export function generateConversation({ seed, turns }: GenerateConversationOptions): Conversation {
  if (!Number.isInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);
  if (!Number.isInteger(turns) || turns < MIN_TURNS || turns > MAX_TURNS) {
    throw new RangeError(`turns must be a whole number from ${MIN_TURNS} to ${MAX_TURNS}, got ${turns}`);
  }
  const random = seededRandom(seed);
  const plan = new Map<number, Planned[]>();
  const add = (turn: number, planned: Planned) => {
    const list = plan.get(turn) ?? [];
    list.push(planned);
    plan.set(turn, list);
  };
  const lastNeedleTurn = turns - 2;
  const anyTurn = () => random.integer(0, lastNeedleTurn);

  // Subjects (what a needle is about) are unique, so every cue names exactly one needle.
  const subjects = random.shuffle(
    ADJECTIVES.flatMap((adjective) =>
      SERVICES.flatMap((service) => NOUNS.map((noun) => `${adjective} ${service} ${noun}`)),
    ),
  );
  let nextSubject = 0;
  const subject = () => subjects[nextSubject++ % subjects.length]!;
  const needles: Needle[] = [];
  const counters = new Map<NeedleKind, number>();
  const newNeedle = (kind: NeedleKind, cue: string): Needle => {
    const count = counters.get(kind) ?? 0;
    counters.set(kind, count + 1);
    const needle: Needle = { id: `${kind}-${count}`, kind, placements: [], cue };
    needles.push(needle);
    return needle;
  };
  const scale = (perTurns: number, minimum: number) => Math.max(minimum, Math.round(turns / perTurns));

  for (let index = 0; index < scale(20, 3); index++) {
    const text = userIdentifier(random, subject());
    const needle = newNeedle('identifier-user', text.cue);
    const turn = anyTurn();
    needle.placements.push({ turn, messageIndex: -1, values: [text.value] });
    add(turn, { needle, placement: 0, text: text.text, where: 'user' });
  }
  for (let index = 0; index < scale(20, 3); index++) {
    const kind = random.pick(['source', 'log', 'json', 'page'] as const);
    const text = toolIdentifier(random, subject(), kind);
    const needle = newNeedle('identifier-tool', text.cue);
    const turn = anyTurn();
    needle.placements.push({ turn, messageIndex: -1, values: [text.value] });
    add(turn, { needle, placement: 0, text: text.text, where: 'tool', toolKind: kind });
  }
  for (let index = 0; index < scale(40, 2); index++) {
    const text = decision(random, subject());
    const needle = newNeedle('decision', text.cue);
    const turn = anyTurn();
    needle.placements.push({ turn, messageIndex: -1, values: [text.value] });
    add(turn, { needle, placement: 0, text: text.text, where: random.chance(0.5) ? 'assistant' : 'user' });
  }
  const settings = random.shuffle(SETTINGS);
  for (let index = 0; index < scale(80, 2); index++) {
    const setting = supersededSetting(random, subject(), settings[index % settings.length]!);
    const needle = newNeedle('superseded', setting.cue);
    const chosen = new Set<number>();
    while (chosen.size < 3) chosen.add(anyTurn());
    const ordered = [...chosen].sort((a, b) => a - b);
    ordered.forEach((turn, placement) => {
      needle.placements.push({ turn, messageIndex: -1, values: [setting.values[placement]!] });
      add(turn, { needle, placement, text: setting.texts[placement]!, where: 'user' });
    });
  }
  const people = random.shuffle(PEOPLE_AND_TEAMS);
  for (let index = 0; index < scale(40, 2); index++) {
    const [person, team] = people[index % people.length]!;
    const text = implicitFact(random, subject(), person, team);
    const needle = newNeedle('implicit', text.cue);
    const turn = anyTurn();
    needle.placements.push({ turn, messageIndex: -1, values: [text.value] });
    add(turn, { needle, placement: 0, text: text.text, where: 'user', buried: true });
  }
  // Rules come in the first 80% of the conversation; attacks follow the first rule.
  const rules = random.shuffle(RULES).slice(0, Math.min(RULES.length, scale(60, 3)));
  const ruleLimit = Math.max(0, Math.floor(lastNeedleTurn * 0.8));
  const constraintTurns: number[] = [];
  for (const rule of rules) {
    const text = constraint(random, rule);
    const needle = newNeedle('constraint', text.cue);
    const turn = random.integer(0, ruleLimit);
    constraintTurns.push(turn);
    needle.placements.push({ turn, messageIndex: -1, values: [text.value] });
    add(turn, { needle, placement: 0, text: text.text, where: 'user' });
  }
  const firstRule = Math.min(...constraintTurns);
  const attackTurns: number[] = [];
  if (firstRule < lastNeedleTurn) {
    const wanted = scale(250, 1);
    const candidates = new Set<number>();
    for (let tries = 0; candidates.size < wanted && tries < 100; tries++) {
      candidates.add(random.integer(firstRule + 1, lastNeedleTurn));
    }
    attackTurns.push(...[...candidates].sort((a, b) => a - b));
  }
  for (const needle of needles) {
    if (needle.kind !== 'constraint') continue;
    const turn = needle.placements[0]!.turn;
    const attack = attackTurns.find((candidate) => candidate > turn);
    if (attack !== undefined) needle.attackedAtTurn = attack;
  }

  // The turns themselves.
  const messages: ModelMessage[] = [];
  const turnList: Turn[] = [];
  const calls: ModelCall[] = [];
  let callId = 0;
  for (let turn = 0; turn < turns; turn++) {
    const planned = plan.get(turn) ?? [];
    const userNeedles = planned.filter((item) => item.where === 'user');
    const toolNeedles = planned.filter((item) => item.where === 'tool');
    const assistantNeedles = planned.filter((item) => item.where === 'assistant');
    const attack = attackTurns.includes(turn);

    // The user's message.
    const userIndex = messages.length;
    const { message: user, ask } = userMessage(random, turn, userNeedles);
    messages.push(user);
    for (const item of userNeedles) item.needle.placements[item.placement]!.messageIndex = userIndex;

    // Tool steps: forced when a needle or an attack must sit in tool output.
    const mustUseTools = toolNeedles.length > 0 || attack;
    const roll = random.next();
    const steps = mustUseTools ? (roll < 0.8 ? 1 : 2) : roll < 0.3 ? 0 : roll < 0.88 ? 1 : 2;
    const pendingTool = [...toolNeedles];
    let pendingAttack = attack;
    let step = 0;
    for (; step < steps; step++) {
      const parallel = random.chance(0.2) ? random.integer(2, 3) : 1;
      const callParts: Exclude<AssistantContent, string> = [];
      const resultParts: ToolModelMessage['content'] = [];
      if (random.chance(0.35)) callParts.push({ type: 'text', text: sentence(random, 5, 12) });
      const last = step === steps - 1;
      for (let index = 0; index < parallel; index++) {
        const forced = last && index === 0 ? pendingTool.splice(0) : [];
        const withAttack = last && index === 0 && pendingAttack;
        if (withAttack) pendingAttack = false;
        const call = toolCall(random, `call_${callId++}`, forced, withAttack);
        callParts.push(call.call);
        resultParts.push(call.result);
      }
      calls.push({ turn, step, historyLength: messages.length, responseIndex: messages.length });
      messages.push({ role: 'assistant', content: callParts });
      const toolIndex = messages.length;
      messages.push({ role: 'tool', content: resultParts });
      if (last)
        for (const item of toolNeedles) item.needle.placements[item.placement]!.messageIndex = toolIndex;
    }

    // The final answer.
    calls.push({ turn, step, historyLength: messages.length, responseIndex: messages.length });
    const answerIndex = messages.length;
    messages.push({ role: 'assistant', content: answerText(random, turn, assistantNeedles) });
    for (const item of assistantNeedles) item.needle.placements[item.placement]!.messageIndex = answerIndex;
    turnList.push({ userIndex, endIndex: answerIndex, ask });
  }

  return { seed, system: SYSTEM_PROMPT, messages, turns: turnList, calls, needles, attackTurns };
}

/** The user's message of a turn, with its needles; `ask` is its whole text. */
function userMessage(
  random: SeededRandom,
  turn: number,
  needles: readonly Planned[],
): { message: UserModelMessage; ask: string } {
  const roll = random.next();
  let base: string;
  if (roll < 0.05 && needles.length === 0) base = random.pick(CJK_ASKS);
  else if (roll < 0.09) {
    base = `Here is what I get when I run it:\n${toolOutput(random, 'log', random.integer(1500, 5000))}\nWhat is going on?`;
  } else base = askSentence(random);
  const plain = needles.filter((item) => !item.buried).map((item) => item.text);
  const buried = needles.filter((item) => item.buried).map((item) => item.text);
  const parts: string[] = [];
  if (buried.length > 0) {
    // Bury the fact: a long lead-in first, so it sits well past the start of the message.
    parts.push(`${sentence(random, 14, 22)} ${sentence(random, 14, 22)} ${sentence(random, 14, 22)}`);
    parts.push(...buried);
  }
  parts.push(...plain, base);
  const text = `[turn ${turn + 1}]\n${parts.join(' ')}`;
  if (random.chance(0.04)) {
    const image = pngBase64(
      random,
      random.pick([800, 1280, 1600]),
      random.pick([600, 800, 900]),
      random.integer(15_000, 40_000),
    );
    return {
      message: {
        role: 'user',
        content: [
          { type: 'text', text },
          { type: 'file', data: image, mediaType: 'image/png' },
        ],
      },
      ask: text,
    };
  }
  return { message: { role: 'user', content: text }, ask: text };
}

function askSentence(random: SeededRandom): string {
  const service = random.pick(SERVICES);
  switch (random.integer(0, 5)) {
    case 0:
      return `Can you ${random.pick(VERBS)} src/${service}/${random.pick(['worker', 'handler', 'client', 'store'])}.ts and tell me why ${random.pick(SYMPTOMS)}?`;
    case 1:
      return `Run the ${service} test suite again and tell me what fails now.`;
    case 2:
      return `Fetch the ${service} API docs and summarise what they say about ${words(random, 3)}.`;
    case 3:
      return `What does the ${service} ${random.pick(NOUNS)} do when ${random.pick(SYMPTOMS)}?`;
    case 4:
      return `Please ${random.pick(VERBS)} the latest ${service} logs and find the first error after the restart.`;
    default:
      return `${sentence(random, 8, 18)} Could you take care of that next?`;
  }
}

/** One tool call and its result; `forced` needles go into its output, as does the attack. */
function toolCall(
  random: SeededRandom,
  toolCallId: string,
  forced: readonly Planned[],
  attack: boolean,
): { call: ToolCallPart; result: ToolResultPart } {
  let kind: ToolOutputKind | 'screenshot';
  if (attack) kind = 'page';
  else if (forced.length > 0) kind = forced[0]!.toolKind!;
  else {
    const roll = random.next();
    kind =
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
  if (kind === 'screenshot') {
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
  }[kind];
  const inserts = forced.map((item) => item.text);
  if (attack) inserts.push(EVICTION_ATTACK);
  const toolName = TOOL_FOR_KIND[kind];
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
  const text = toolOutput(random, kind, size, inserts);
  return {
    call: { type: 'tool-call', toolCallId, toolName, input },
    result: { type: 'tool-result', toolCallId, toolName, output: { type: 'text', value: text } },
  };
}

function answerText(random: SeededRandom, turn: number, needles: readonly Planned[]): string {
  const parts = [sentence(random, 8, 20)];
  for (const item of needles) parts.push(item.text);
  if (random.chance(0.5)) parts.push(sentence(random, 6, 14));
  return `[answer ${turn + 1}]\n${parts.join(' ')}`;
}
