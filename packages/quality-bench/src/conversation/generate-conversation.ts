import type { AssistantContent, ModelMessage, ToolModelMessage } from 'ai';
import { askQuestion } from '../questions/ask-question';
import { seededRandom } from '../random/seeded-random';
import type {
  Conversation,
  ModelCall,
  Needle,
  NeedleKind,
  NeedleSource,
  NeedleTopic,
  Turn,
} from './conversation';
import {
  constraint,
  decision,
  EVICTION_ATTACKS,
  implicitFact,
  PEOPLE_AND_TEAMS,
  supersededSetting,
  toolIdentifier,
  userIdentifier,
} from './needle-text';
import { phrasingSet } from './phrasing-set';
import type { PhrasingSplit } from './phrasings/phrasing-split';
import { toolCall } from './tool-call';
import { sentence, type ToolOutputKind } from './tool-outputs';
import { answerText, type StyledText, type TextStyle, userMessage } from './turn-text';
import { ADJECTIVES, NOUNS, SERVICES, SETTINGS } from './vocabulary';

/** Options of {@link generateConversation}. */
export interface GenerateConversationOptions {
  /** Seeds every choice: the same seed, turn count and split give the same conversation, byte for byte. */
  seed: number;
  /** User turns, 4 to 2,000 (the benchmark uses 50–1,000). */
  turns: number;
  /**
   * Which phrasings the needles are written with (see `splitOf`): the published numbers use
   * `heldout`; an engine may be tuned on `tune` only.
   * @default 'heldout'
   */
  split?: PhrasingSplit;
}

/**
 * The generator's version: bump it whenever a change alters what any seed generates (it keys the
 * on-disk conversation cache and is written into the results).
 */
export const GENERATOR_VERSION = 2;

/** A superseded setting needs three distinct turns before the last one. */
const MIN_TURNS = 4;
const MAX_TURNS = 2000;

/** The system prompt every conversation starts with. */
export const SYSTEM_PROMPT =
  'You are a senior engineer pairing with the user on a payments platform. Use the tools to read code, run commands and fetch pages; answer concisely.';

/** A needle's text waiting for its turn. */
interface Planned {
  needle: Needle;
  /** Which placement of the needle this is. */
  placement: number;
  text: string;
  source: NeedleSource;
  /** For the user's message: how the text sits in it. */
  style?: TextStyle;
  /** For `source: 'tool'`: the kind of output it sits in. */
  output?: ToolOutputKind;
}

/**
 * Generates a seeded agent conversation: a user asking, an assistant answering, single and
 * parallel tool calls, multi-step turns, big results (source files, logs, JSON, web pages, base64),
 * screenshots and pasted images, pasted configs and logs, CJK text, and needles planted at known
 * turns (see {@link Needle}), written with the phrasings of one split. Needles are planted in turns
 * `0 … turns - 2`, so the final turn can ask about all of them.
 *
 * @throws {RangeError} when `turns` is outside 4–2,000 or `seed` is not an integer.
 */
export function generateConversation({
  seed,
  turns,
  split = 'heldout',
}: GenerateConversationOptions): Conversation {
  if (!Number.isInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);
  if (!Number.isInteger(turns) || turns < MIN_TURNS || turns > MAX_TURNS) {
    throw new RangeError(`turns must be a whole number from ${MIN_TURNS} to ${MAX_TURNS}, got ${turns}`);
  }
  const phrasings = phrasingSet(split);
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
  const newNeedle = (kind: NeedleKind, cue: string, topic: NeedleTopic): Needle => {
    const count = counters.get(kind) ?? 0;
    counters.set(kind, count + 1);
    const needle: Needle = { id: `${kind}-${count}`, kind, placements: [], cue, topic, question: '' };
    needles.push(needle);
    return needle;
  };
  const place = (
    needle: Needle,
    turn: number,
    values: string[],
    answers: string[],
    planned: Omit<Planned, 'needle' | 'placement'>,
  ) => {
    needle.placements.push({ turn, messageIndex: -1, source: planned.source, values, answers });
    add(turn, { needle, placement: needle.placements.length - 1, ...planned });
  };
  const scale = (perTurns: number, minimum: number) => Math.max(minimum, Math.round(turns / perTurns));

  for (let index = 0; index < scale(20, 3); index++) {
    const about = subject();
    const text = userIdentifier(random, about, phrasings);
    const needle = newNeedle('identifier-user', text.cue, { subject: about, detail: text.kind });
    place(needle, anyTurn(), [text.value], text.answers, {
      text: text.text,
      source: text.blob ? 'pasted' : 'user',
      style: text.blob ?? (random.chance(0.8) ? 'lead' : 'end'),
    });
  }
  for (let index = 0; index < scale(20, 3); index++) {
    const about = subject();
    const text = toolIdentifier(random, about, phrasings);
    const needle = newNeedle('identifier-tool', text.cue, { subject: about, detail: text.kind });
    place(needle, anyTurn(), [text.value], text.answers, {
      text: text.text,
      source: 'tool',
      output: text.output,
    });
  }
  for (let index = 0; index < scale(40, 2); index++) {
    const about = subject();
    const text = decision(random, about, phrasings);
    const needle = newNeedle('decision', text.cue, { subject: about, detail: 'decision' });
    place(needle, anyTurn(), [text.value], text.answers, {
      text: text.text,
      source: text.by,
      style: random.chance(0.75) ? 'lead' : 'end',
    });
  }
  const settings = random.shuffle(SETTINGS);
  for (let index = 0; index < scale(80, 2); index++) {
    const about = subject();
    const setting = settings[index % settings.length]!;
    const texts = supersededSetting(random, about, setting, phrasings);
    const needle = newNeedle('superseded', texts.cue, { subject: about, detail: setting });
    const chosen = new Set<number>();
    while (chosen.size < 3) chosen.add(anyTurn());
    [...chosen]
      .sort((a, b) => a - b)
      .forEach((turn, step) => {
        place(needle, turn, [texts.values[step]!], [texts.numbers[step]!], {
          text: texts.texts[step]!,
          source: 'user',
          style: random.chance(0.7) ? 'lead' : 'end',
        });
      });
  }
  const people = random.shuffle(PEOPLE_AND_TEAMS);
  for (let index = 0; index < scale(40, 2); index++) {
    const [person, team] = people[index % people.length]!;
    const about = subject();
    const text = implicitFact(random, about, person, team, phrasings);
    const needle = newNeedle('implicit', text.cue, { subject: about, detail: text.relation });
    place(needle, anyTurn(), [text.value], text.answers, {
      text: text.text,
      source: 'user',
      style: random.chance(0.6) ? 'buried' : random.chance(0.5) ? 'end' : 'bullet',
    });
  }
  // Rules come in the first 80% of the conversation; attacks follow the first rule.
  const rules = random.shuffle(phrasings.rules).slice(0, Math.min(phrasings.rules.length, scale(60, 3)));
  const ruleLimit = Math.max(0, Math.floor(lastNeedleTurn * 0.8));
  const constraintTurns: number[] = [];
  for (const rule of rules) {
    const text = constraint(rule);
    const needle = newNeedle('constraint', text.cue, { detail: 'rule', questions: rule.questions });
    const turn = random.integer(0, ruleLimit);
    constraintTurns.push(turn);
    const roll = random.next();
    place(needle, turn, [text.value], text.answers, {
      text: text.text,
      source: 'user',
      style: roll < 0.5 ? 'lead' : roll < 0.75 ? 'end' : 'bullet',
    });
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
    const userNeedles = planned.filter((item) => item.source === 'user' || item.source === 'pasted');
    const toolNeedles = planned.filter((item) => item.source === 'tool');
    const assistantNeedles = planned.filter((item) => item.source === 'assistant');
    const attack = attackTurns.includes(turn);

    // The user's message.
    const userIndex = messages.length;
    const styled: StyledText[] = userNeedles.map((item) => ({
      text: item.text,
      style: item.style ?? 'lead',
    }));
    const { message: user, ask } = userMessage(random, turn, styled, phrasings);
    messages.push(user);
    for (const item of userNeedles) item.needle.placements[item.placement]!.messageIndex = userIndex;

    // Tool steps: forced when a needle or an attack must sit in tool output. The last step carries
    // them, one call per kind of output (the attack in a web page).
    const forced = new Map<ToolOutputKind, string[]>();
    for (const item of toolNeedles)
      forced.set(item.output!, [...(forced.get(item.output!) ?? []), item.text]);
    if (attack) forced.set('page', [...(forced.get('page') ?? []), random.pick(EVICTION_ATTACKS)]);
    const roll = random.next();
    const steps = forced.size > 0 ? (roll < 0.8 ? 1 : 2) : roll < 0.3 ? 0 : roll < 0.88 ? 1 : 2;
    let step = 0;
    for (; step < steps; step++) {
      const last = step === steps - 1;
      const carried = last ? [...forced] : [];
      const parallel = Math.max(carried.length, random.chance(0.2) ? random.integer(2, 3) : 1);
      const callParts: Exclude<AssistantContent, string> = [];
      const resultParts: ToolModelMessage['content'] = [];
      if (random.chance(0.35)) callParts.push({ type: 'text', text: sentence(random, 5, 12) });
      for (let index = 0; index < parallel; index++) {
        const [kind, inserts] = carried[index] ?? [undefined, []];
        const call = toolCall(random, `call_${callId++}`, kind, inserts);
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
    messages.push({
      role: 'assistant',
      content: answerText(
        random,
        turn,
        assistantNeedles.map((item) => item.text),
        phrasings,
      ),
    });
    for (const item of assistantNeedles) item.needle.placements[item.placement]!.messageIndex = answerIndex;
    turnList.push({ userIndex, endIndex: answerIndex, ask });
  }

  for (const needle of needles) needle.question = askQuestion(needle, seed);
  return { seed, split, system: SYSTEM_PROMPT, messages, turns: turnList, calls, needles, attackTurns };
}
