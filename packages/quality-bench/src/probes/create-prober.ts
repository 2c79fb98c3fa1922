import type { LanguageModelV4 } from '@ai-sdk/provider';
import { generateText, jsonSchema, type ModelMessage, tool } from 'ai';
import type { NeedleKind } from '../conversation/conversation';
import type { BenchRequest } from '../request/bench-request';
import { fromLanguageModelPrompt } from '../request/from-language-model-prompt';
import type { NeedleExpectation } from '../score/needle-checks';
import type { TokenCounter } from '../tokens/token-counter';
import { toModelMessages } from './to-model-messages';

/**
 * The four probe types of Factory's probe-based evaluation of context compression: recall (a fact
 * stated earlier), artifact (something a tool produced), continuation (what to do next given the
 * standing instructions and settings), decision (what was decided, and why).
 */
export type ProbeType = 'recall' | 'artifact' | 'continuation' | 'decision';

/** Every probe type, in table order. */
export const PROBE_TYPES: readonly ProbeType[] = ['recall', 'artifact', 'continuation', 'decision'];

/** The probe type each class of needle is asked with. */
export const PROBE_TYPE: Readonly<Record<NeedleKind, ProbeType>> = {
  'identifier-user': 'recall',
  implicit: 'recall',
  'identifier-tool': 'artifact',
  superseded: 'continuation',
  constraint: 'continuation',
  decision: 'decision',
};

/** What the model is told after the question. */
export const PROBE_INSTRUCTION =
  'Answer from this conversation only, in one or two sentences. Quote ids, paths, names and numbers exactly as they were given. If it was never said, answer "not stated".';

/** One probe: the question asked about a needle, the model's answer and the verdicts. */
export interface ProbeResult {
  expectation: NeedleExpectation;
  type: ProbeType;
  answer: string;
  /** Every word of the needle's `answers` is in the answer (case-insensitive; numbers whole). */
  correct: boolean;
  /** The judge model's verdict, when there is a judge. */
  judged?: boolean;
}

/** Asks a real model about the needles, from the request a strategy sent. */
export interface Prober {
  /** Probes every expectation against `request`; a failed call (no request) answers nothing. */
  probe(
    request: BenchRequest | undefined,
    expectations: readonly NeedleExpectation[],
  ): Promise<ProbeResult[]>;
  /** Model calls made (probes and judgements). */
  calls(): number;
  /** Tokens of every prompt sent (o200k). */
  tokens(): number;
}

/** Options of {@link createProber}. */
export interface CreateProberOptions {
  /** The model that answers the probes (`--model`). */
  model: LanguageModelV4;
  /** A model that grades each answer against the planted fact (`--judge`), if any. */
  judge?: LanguageModelV4;
  counter: TokenCounter;
}

/** Whether `answer` holds every expected word (case-insensitive; a number only as a whole number). */
export function answerHolds(answer: string, expected: readonly string[]): boolean {
  const lower = answer.toLowerCase();
  return expected.every((word) =>
    /^\d+$/.test(word)
      ? new RegExp(`(?<![\\d.,])${word}(?![\\d])`).test(answer)
      : lower.includes(word.toLowerCase()),
  );
}

/**
 * A {@link Prober}: for each needle, the request the strategy sent (as AI SDK messages, tools
 * declared, `toolChoice: 'none'`) plus one user message with the needle's question and
 * {@link PROBE_INSTRUCTION}, answered by `model` at temperature 0; scored by exact match of the
 * needle's answer words, and by `judge` when given.
 */
export function createProber({ model, judge, counter }: CreateProberOptions): Prober {
  let calls = 0;
  let tokens = 0;
  const ask = async (
    system: string | undefined,
    messages: ModelMessage[],
    tools?: Record<string, unknown>,
  ) => {
    calls++;
    tokens += counter.request(
      fromLanguageModelPrompt([...(system ? [{ role: 'system', content: system }] : []), ...messages]),
    );
    const { text } = await generateText({
      model,
      ...(system ? { system } : {}),
      messages,
      temperature: 0,
      maxRetries: 2,
      ...(tools && Object.keys(tools).length > 0
        ? { tools: tools as never, toolChoice: 'none' as const }
        : {}),
    });
    return text;
  };
  const grade = async (question: string, expectation: NeedleExpectation, answer: string) => {
    if (judge === undefined) return undefined;
    const prompt = [
      'You grade an answer to a question about an earlier conversation.',
      `Question: ${question}`,
      `The fact as it was stated: "${expectation.values.join('" / "')}"`,
      `A right answer conveys: ${expectation.answers.join(', ')}`,
      `The answer given: "${answer}"`,
      'Reply with one word: CORRECT or WRONG.',
    ].join('\n');
    calls++;
    tokens += counter.text(prompt);
    const { text } = await generateText({ model: judge, prompt, temperature: 0, maxRetries: 2 });
    return !/\b(?:wrong|incorrect)\b/i.test(text) && /\bcorrect\b/i.test(text);
  };
  return {
    async probe(request, expectations) {
      const results: ProbeResult[] = [];
      const asked = request === undefined ? undefined : toModelMessages(request);
      const tools = Object.fromEntries(
        (asked?.toolNames ?? []).map((name) => [
          name,
          tool({
            description: `The ${name} tool.`,
            inputSchema: jsonSchema({ type: 'object', additionalProperties: true }),
          }),
        ]),
      );
      for (const expectation of expectations) {
        const type = PROBE_TYPE[expectation.needle.kind];
        if (asked === undefined) {
          results.push({
            expectation,
            type,
            answer: '',
            correct: false,
            ...(judge ? { judged: false } : {}),
          });
          continue;
        }
        const question = expectation.needle.question;
        const answer = await ask(
          asked.system || undefined,
          [...asked.messages, { role: 'user', content: `${question}\n\n${PROBE_INSTRUCTION}` }],
          tools,
        );
        const judged = await grade(question, expectation, answer);
        results.push({
          expectation,
          type,
          answer,
          correct: answerHolds(answer, expectation.answers),
          ...(judged === undefined ? {} : { judged }),
        });
      }
      return results;
    },
    calls: () => calls,
    tokens: () => tokens,
  };
}
