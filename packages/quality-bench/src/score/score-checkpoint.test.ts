import { describe, expect, it } from 'vitest';
import type { Needle } from '../conversation/conversation';
import type { BenchRequest } from '../request/bench-request';
import type { ReadBack } from '../strategies/strategy';
import { allPresent, expectationAt, latestValueCorrect } from './needle-checks';
import { emptyRunScore } from './run-score';
import { addCheckpoint, scoreCheckpoint } from './score-checkpoint';

const needle = (
  id: string,
  kind: Needle['kind'],
  placements: [number, string][],
  extra: Partial<Needle> = {},
): Needle => ({
  id,
  kind,
  cue: `${id} cue`,
  topic: { subject: `${id} subject`, detail: kind },
  question: `What about ${id}?`,
  placements: placements.map(([turn, value]) => ({
    turn,
    messageIndex: turn * 2,
    source: 'user' as const,
    values: [value],
    answers: [value],
  })),
  ...extra,
});

const request = (...texts: string[]): BenchRequest => [
  { role: 'system', parts: [{ type: 'text', text: 'system prompt' }] },
  ...texts.map((text) => ({ role: 'user' as const, parts: [{ type: 'text' as const, text }] })),
];

describe('needle checks', () => {
  it('expects only what was planted before the turn, the latest value of a setting, and knows attacks', () => {
    const setting = needle('s', 'superseded', [
      [2, 'limit to 11'],
      [5, 'limit to 23'],
      [9, 'limit to 47'],
    ]);
    expect(expectationAt(setting, 2)).toBeUndefined();
    expect(expectationAt(setting, 3)?.values).toEqual(['limit to 11']);
    expect(expectationAt(setting, 9)).toMatchObject({ values: ['limit to 23'], stale: ['limit to 11'] });
    expect(expectationAt(setting, 40)).toMatchObject({
      values: ['limit to 47'],
      stale: ['limit to 11', 'limit to 23'],
    });
    const rule = needle('r', 'constraint', [[1, 'never push to main']], { attackedAtTurn: 6 });
    expect(expectationAt(rule, 6)?.attacked).toBe(false);
    expect(expectationAt(rule, 7)?.attacked).toBe(true);
  });

  it('reads a superseded setting as right only when the latest value comes last', () => {
    expect(latestValueCorrect('to 11 … to 47', ['to 47'], ['to 11'])).toBe(true);
    expect(latestValueCorrect('to 47 … to 11', ['to 47'], ['to 11'])).toBe(false);
    expect(latestValueCorrect('to 11 … to 47 … to 11 … to 47', ['to 47'], ['to 11'])).toBe(true);
    expect(latestValueCorrect('to 11 only', ['to 47'], ['to 11'])).toBe(false);
    expect(allPresent('a b c', ['a', 'c'])).toBe(true);
    expect(allPresent('a b c', ['a', 'd'])).toBe(false);
  });
});

describe('scoreCheckpoint', () => {
  const needles = [
    needle('id-kept', 'identifier-user', [[1, 'dep-aaaa1111']]),
    needle('id-lost', 'identifier-tool', [[2, 'req_bbbb2222']]),
    needle('rule', 'constraint', [[1, 'never push to main']], { attackedAtTurn: 3 }),
    needle('later', 'decision', [[8, 'chose X over Y because Z']]),
    needle('setting', 'superseded', [
      [1, 'size to 11'],
      [4, 'size to 23'],
      [6, 'size to 47'],
    ]),
  ];

  it('counts a needle as kept when its value is in the request verbatim, and ignores needles not planted yet', async () => {
    const results = await scoreCheckpoint({
      request: request('the deploy was dep-aaaa1111', 'we set size to 11 then size to 23'),
      needles,
      turn: 5,
      history: [],
    });
    expect(results.map((result) => [result.expectation.needle.id, result.present, result.recovered])).toEqual(
      [
        ['id-kept', true, true],
        ['id-lost', false, false],
        ['rule', false, false],
        ['setting', true, true],
      ],
    );
    expect(results.find((result) => result.expectation.needle.id === 'setting')?.correct).toBe(true);
    const score = emptyRunScore('hand-made', 0.3);
    addCheckpoint(score, results);
    expect(score.classes['identifier-user']).toEqual({ total: 1, survived: 1, recovered: 1 });
    expect(score.classes['identifier-tool']).toEqual({ total: 1, survived: 0, recovered: 0 });
    expect(score.classes.decision.total).toBe(0);
    expect(score.attackedConstraints).toEqual({ total: 1, survived: 0, recovered: 0 });
    expect(score.supersededCorrect).toBe(1);
  });

  it('counts what the read-back returns within two calls, and nothing after them', async () => {
    const asked: string[] = [];
    const readBack: ReadBack = async ({ question, maxCalls }) => {
      asked.push(question.text);
      expect(maxCalls).toBe(2);
      if (question.text === 'What about id-lost?') {
        return [
          { toolName: 'recall', input: { query: question.text }, output: 'no match' },
          { toolName: 'recall', input: { reference: 'r1' }, output: 'request_id=req_bbbb2222' },
        ];
      }
      // A third call never counts.
      return [
        { toolName: 'recall', input: {}, output: 'nothing' },
        { toolName: 'recall', input: {}, output: 'nothing' },
        { toolName: 'recall', input: {}, output: 'never push to main' },
      ];
    };
    const results = await scoreCheckpoint({
      request: request('the deploy was dep-aaaa1111'),
      needles: needles.slice(0, 3),
      turn: 5,
      history: [],
      readBack,
    });
    // The read-back is asked the needle's question, never its cue.
    expect(asked).toEqual(['What about id-lost?', 'What about rule?']);
    expect(results.map((result) => [result.present, result.recovered, result.calls.length])).toEqual([
      [true, true, 0],
      [false, true, 2],
      [false, false, 2],
    ]);
  });

  it('counts an old value of a setting returned unmarked beside the newest as wrong', async () => {
    const setting = needle('limit', 'superseded', [
      [1, 'limit to 11'],
      [2, 'limit to 23'],
      [3, 'limit to 47'],
    ]);
    const answering =
      (output: string): ReadBack =>
      async () => [{ toolName: 'recall', input: {}, output }];
    const verdict = async (output: string) =>
      (
        await scoreCheckpoint({
          request: request('nothing here'),
          needles: [setting],
          turn: 5,
          history: [],
          readBack: answering(output),
        })
      )[0]!.recovered;
    expect(await verdict('set the limit to 47')).toBe(true);
    expect(await verdict('set the limit to 11\nthen the limit to 23\nthen the limit to 47')).toBe(false);
    expect(await verdict('set the limit to 23\nnow the limit to 47 (latest)')).toBe(true);
    expect(await verdict('(superseded) the limit to 11\nthe limit to 47')).toBe(true);
    expect(await verdict('the limit to 11\nthe limit to 23')).toBe(false);
  });

  it('finds nothing in a failed call', async () => {
    const results = await scoreCheckpoint({
      request: undefined,
      needles,
      turn: 9,
      history: [],
      readBack: async () => [{ toolName: 'recall', input: {}, output: 'dep-aaaa1111' }],
    });
    expect(results.every((result) => !result.present && !result.recovered && !result.correct)).toBe(true);
    expect(results).toHaveLength(5);
  });
});
