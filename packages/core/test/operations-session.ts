import type { Message } from '../src/message/message';
import { seededRandom } from './conversation-fixtures';

/**
 * A second conversation generator, written apart from the quality bench's (other phrasings, other
 * shapes): an operations assistant whose user writes long messages (filler sentences, some with
 * the words rules are made of: "should", "need", "keep") with one fact now and then — an account
 * id, a config path, a decision, a standing instruction phrased freely — and whose tools return
 * 0.5–32 K of listings with a ticket id now and then. Facts are planted before the last two turns.
 */
export interface OperationsFact {
  readonly kind: 'user-id' | 'path' | 'decision' | 'rule' | 'tool-id';
  /** The turn the fact is said in (0-based). */
  readonly turn: number;
  /** What must be found verbatim in a request for the fact to be kept. */
  readonly value: string;
}

export interface OperationsTurn {
  readonly user: Message;
  /** Tool steps: the assistant's call and the tool's result. */
  readonly steps: readonly (readonly [Message, Message])[];
  readonly answer: Message;
}

/** Standing instructions phrased freely (few with never / always / must). */
const RULES = [
  'Whatever report you draft for me ends with a one-line TL;DR.',
  'Address the customer as Dr. Okafor in any reply you draft.',
  'Timestamps I get from you should be in UTC.',
  'Our auditors need ticket numbers in every summary, so include them.',
  "I'm colour-blind, so skip red and green colour coding in charts.",
  'Round percentages to one decimal place.',
  'When in doubt, ask me rather than guessing.',
  'Vendor names stay out of the public notes.',
  'Mention the data source under each table you produce.',
  'Nobody outside the finance group gets the raw export.',
  'Write the changelog entries in the past tense.',
  'Any query against the replica has a LIMIT clause.',
  'Please, no exclamation marks in customer-facing text.',
  'Drafts go to me first, not straight to the customer.',
  'I want the estimates in person-days, not hours.',
  'For the board deck, one chart per slide.',
  'Keep each status update under 120 words.',
  'Use the metric system in all the specs.',
  "Don't ever email the sandbox list.",
  'Refunds above 500 euros need my sign-off.',
];

const WORDS = (
  'invoice ledger batch queue retry export partner region shipment carrier webhook payload cluster ' +
  'quota billing report schedule import mapping tenant refund audit ticket cohort funnel churn metric ' +
  'dashboard replica index migration snapshot backup latency spike alert rotation vendor contract renewal'
).split(' ');

/** Filler with verbs and modals, the kind a rule or decision detector must not fall for. */
const FILLER = [
  'Can you check why the {w} job is slow again?',
  'I looked at the {w} dashboard this morning and it seemed fine.',
  'The {w} numbers should be ready by tomorrow.',
  'We need to look at the {w} flow before the review.',
  'Maybe the {w} retries are hiding the real problem.',
  'Let me know what you find in the {w} logs.',
  'It would be good to keep an eye on the {w} queue.',
  'Our partner team asked about the {w} export last week.',
];

/** A session of `turns` turns; `verbosity` multiplies the filler sentences of each user message. */
export function operationsSession({
  seed,
  turns,
  verbosity = 4,
}: {
  seed: number;
  turns: number;
  verbosity?: number;
}): { system: Message; turns: OperationsTurn[]; facts: OperationsFact[] } {
  const random = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const words = (count: number) => Array.from({ length: count }, () => pick(WORDS)).join(' ');
  const code = (length: number) =>
    Array.from({ length }, () => '0123456789abcdefghjkmnpqrstuvwxyz'[Math.floor(random() * 33)]).join('');
  const filler = () => {
    if (random() < 0.5) return pick(FILLER).replace('{w}', pick(WORDS));
    const text = words(6 + Math.floor(random() * 10));
    return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
  };
  const rules = [...RULES];
  const facts: OperationsFact[] = [];
  const out: OperationsTurn[] = [];
  let calls = 0;
  for (let turn = 0; turn < turns; turn++) {
    const sentences = Array.from({ length: verbosity * (1 + Math.floor(random() * 4)) }, filler);
    const at = () => Math.floor(random() * (sentences.length + 1));
    const plant = turn < turns - 2;
    const roll = random();
    if (plant && roll < 0.12) {
      const value = `ACC-${Math.floor(100_000 + random() * 899_999)}`;
      facts.push({ kind: 'user-id', turn, value });
      sentences.splice(at(), 0, `The account in question is ${value}, by the way.`);
    } else if (plant && roll < 0.22) {
      const value = `/srv/${pick(WORDS)}/${pick(WORDS)}-${code(4)}.conf`;
      facts.push({ kind: 'path', turn, value });
      sentences.splice(at(), 0, `The settings live in ${value} on the batch host.`);
    } else if (plant && roll < 0.3) {
      const value = `We'll go with the ${pick(WORDS)} approach over the ${pick(WORDS)} one for the ${pick(WORDS)} work, since it is cheaper to run.`;
      facts.push({ kind: 'decision', turn, value });
      sentences.splice(at(), 0, value);
    } else if (plant && roll < 0.36 && rules.length > 0) {
      const value = rules.splice(Math.floor(random() * rules.length), 1)[0]!;
      facts.push({ kind: 'rule', turn, value });
      sentences.splice(at(), 0, value);
    }
    const steps: [Message, Message][] = [];
    const stepCount = random() < 0.2 ? 0 : 1 + Math.floor(random() * 3);
    for (let step = 0; step < stepCount; step++) {
      const toolCallId = `call_${calls++}`;
      const toolName = pick(['query_db', 'search_tickets', 'read_doc', 'http_get', 'list_dir']);
      const size = random() < 0.1 ? 12_000 + random() * 20_000 : 500 + random() * 6_000;
      const lines: string[] = [];
      for (let length = 0; length < size; ) {
        const line = `${turn}.${step} ${words(8)} id=${code(6)} ${Math.floor(random() * 1e4)}`;
        lines.push(line);
        length += line.length + 1;
      }
      if (plant && random() < 0.15) {
        const value = `TKT-${code(8).toUpperCase()}`;
        facts.push({ kind: 'tool-id', turn, value });
        lines.splice(Math.floor(random() * lines.length), 0, `escalation ticket ${value} opened`);
      }
      steps.push([
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId, toolName, input: { q: words(3) } }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId, toolName, content: lines.join('\n') }] },
      ]);
    }
    out.push({
      user: { role: 'user', content: sentences.join(' ') },
      steps,
      answer: { role: 'assistant', content: `${filler()} ${filler()}` },
    });
  }
  return { system: { role: 'system', content: 'You are an operations assistant.' }, turns: out, facts };
}
