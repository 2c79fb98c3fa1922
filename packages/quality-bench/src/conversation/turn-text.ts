import type { UserModelMessage } from 'ai';
import type { SeededRandom } from '../random/seeded-random';
import type { PhrasingSet } from './phrasing-set';
import { configYaml, pngBase64, sentence, toolOutput, words } from './tool-outputs';
import { CJK_ASKS, NOUNS, SERVICES, SYMPTOMS, VERBS } from './vocabulary';

/**
 * How a needle's text sits in a message:
 * - `lead`: before the ask, in the same paragraph;
 * - `buried`: after a long lead-in of three sentences (said in passing, well into the message);
 * - `end`: after the ask, as an afterthought;
 * - `bullet`: one item of a short bullet list among ordinary items;
 * - `yaml` / `log`: a line inside a config or log the user pastes.
 */
export type TextStyle = 'lead' | 'buried' | 'end' | 'bullet' | 'yaml' | 'log';

/** A needle's text waiting for its message. */
export interface StyledText {
  text: string;
  style: TextStyle;
}

const ACKS = ['ok, go on.', 'Thanks. Keep going.', 'Sounds good, next step please.', 'Right, carry on.'];

/** The user's message of a turn, with its needles; `ask` is its whole text. */
export function userMessage(
  random: SeededRandom,
  turn: number,
  needles: readonly StyledText[],
  phrasings: PhrasingSet,
): { message: UserModelMessage; ask: string } {
  const of = (style: TextStyle) => needles.filter((item) => item.style === style).map((item) => item.text);
  const roll = random.next();
  const paragraphs: string[] = [];
  let base: string;
  if (roll < 0.05 && needles.length === 0) base = random.pick(CJK_ASKS);
  else if (roll < 0.09) {
    base = `Here is what I get when I run it:\n${toolOutput(random, 'log', random.integer(1500, 5000))}\nWhat is going on?`;
  } else if (roll < 0.15 && needles.length === 0) base = random.pick(ACKS);
  else if (roll < 0.45) base = `${random.pick(phrasings.ordinary.user)} ${askSentence(random)}`;
  else base = askSentence(random);
  const first: string[] = [];
  const buried = of('buried');
  if (buried.length > 0) {
    first.push(`${sentence(random, 14, 22)} ${sentence(random, 14, 22)} ${sentence(random, 14, 22)}`);
    first.push(...buried);
  }
  first.push(...of('lead'), base, ...of('end'));
  paragraphs.push(first.join(' '));
  const bullets = of('bullet');
  if (bullets.length > 0) {
    const items = [random.pick(phrasings.ordinary.user), ...bullets];
    if (random.chance(0.5)) items.push(random.pick(phrasings.ordinary.user));
    paragraphs.push(`A few things while you are at it:\n${items.map((item) => `- ${item}`).join('\n')}`);
  }
  const yaml = of('yaml');
  if (yaml.length > 0) {
    paragraphs.push(
      `Here is the relevant part of my local config:\n\`\`\`yaml\n${configYaml(random, random.integer(12, 40), yaml)}\n\`\`\``,
    );
  }
  const log = of('log');
  if (log.length > 0) {
    paragraphs.push(
      `This is what the rollout printed:\n\`\`\`\n${toolOutput(random, 'log', random.integer(800, 2500), log)}\n\`\`\``,
    );
  }
  const text = `[turn ${turn + 1}]\n${paragraphs.join('\n\n')}`;
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
  switch (random.integer(0, 7)) {
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
    case 5:
      return `Any idea why ${random.pick(SYMPTOMS)} in ${service}?`;
    case 6:
      return `Next: ${random.pick(VERBS)} the ${service} ${random.pick(NOUNS)} config and compare it with staging.`;
    default:
      return `${sentence(random, 8, 18)} Could you take care of that next?`;
  }
}

/** The assistant's final answer of a turn, with its needles: a paragraph, sometimes a list or code. */
export function answerText(
  random: SeededRandom,
  turn: number,
  needles: readonly string[],
  phrasings: PhrasingSet,
): string {
  const opening = random.chance(0.5) ? random.pick(phrasings.ordinary.assistant) : sentence(random, 8, 20);
  const parts = [opening, ...needles];
  if (random.chance(0.5)) parts.push(sentence(random, 6, 14));
  const paragraphs = [parts.join(' ')];
  const roll = random.next();
  if (roll < 0.2) {
    const items = [
      random.pick(phrasings.ordinary.assistant),
      sentence(random, 5, 10),
      sentence(random, 5, 10),
    ];
    paragraphs.push(`What I checked:\n${items.map((item) => `- ${item}`).join('\n')}`);
  } else if (roll < 0.32) {
    paragraphs.push(
      `The relevant part:\n\`\`\`ts\n${toolOutput(random, 'source', random.integer(200, 700))}\n\`\`\``,
    );
  }
  return `[answer ${turn + 1}]\n${paragraphs.join('\n\n')}`;
}
