import { describe, expect, it } from 'vitest';
import { createEstimator } from '../../estimate/create-estimator';
import type { Message } from '../../message/message';
import { compactMessages } from '../compact-messages';
import { createCompactor } from '../create-compactor';

/** `turns` finished turns of prose (about `wordsPerTurn` words each side), then a turn in progress. */
function conversation(turns: number, wordsPerTurn: number, inProgressChars: number): Message[] {
  const prose = (turn: number, who: string) =>
    `${who} turn ${turn}: ${'we weighed the options and settled the plan for the service. '.repeat(Math.ceil(wordsPerTurn / 10))}`;
  const messages: Message[] = [{ role: 'system', content: 'You are an agent.' }];
  for (let turn = 0; turn < turns; turn++) {
    messages.push(
      { role: 'user', content: prose(turn, 'user') },
      { role: 'assistant', content: prose(turn, 'assistant') },
    );
  }
  messages.push(
    { role: 'user', content: 'Read the big log and tell me what failed.' },
    {
      role: 'assistant',
      content: [
        { type: 'tool-call', toolCallId: 'big', toolName: 'read_file', input: { path: 'logs/app.log' } },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'big',
          toolName: 'read_file',
          content: `${'2026-11-27T10:00:00Z INFO request served in 12 ms\n'.repeat(Math.ceil(inProgressChars / 50))}`,
        },
      ],
    },
  );
  return messages;
}

function counting() {
  let calls = 0;
  return {
    summarizer: () => {
      calls++;
      return 'The user and the assistant settled a plan for the service.';
    },
    calls: () => calls,
  };
}

describe('summarize old dialogue: only when the dialogue itself fills the window', () => {
  it('a turn in progress that outweighs a short dialogue drops old turns from this request, and makes no summary', async () => {
    const { summarizer, calls } = counting();
    const messages = conversation(12, 40, 40_000);
    const result = await compactMessages(messages, { contextWindow: 16_000, summarizer });
    expect(calls()).toBe(0);
    expect(result.state).toBeUndefined();
    expect(result.actions).toContain('drop-oldest');
    expect(result.tokensAfter).toBeLessThanOrEqual(16_000 * 0.85);
    // The stored conversation is untouched: the turn over, the next request has every word again.
    const next: Message[] = [
      ...messages,
      { role: 'assistant', content: 'Nothing failed.' },
      { role: 'user', content: 'Thanks.' },
    ];
    const after = await compactMessages(next, { contextWindow: 16_000, summarizer });
    expect(calls()).toBe(0);
    const text = JSON.stringify(after.messages);
    for (let turn = 0; turn < 12; turn++) expect(text).toContain(`assistant turn ${turn}:`);
  });

  it('a dialogue that fills the window is summarized, a large turn in progress or not', async () => {
    for (const inProgressChars of [200, 40_000]) {
      const { summarizer, calls } = counting();
      const result = await compactMessages(conversation(60, 120, inProgressChars), {
        contextWindow: 16_000,
        summarizer,
      });
      expect(calls(), `turn in progress of ${inProgressChars} characters`).toBeGreaterThan(0);
      expect(result.actions).toContain('summarize');
    }
  });

  it('the background follows the same rule: it summarizes for a turn in progress that does not outweigh the dialogue, and not for one that does', async () => {
    const estimator = createEstimator();
    for (const [inProgressChars, expected] of [
      [2_000, true],
      [40_000, false],
    ] as const) {
      const messages = conversation(30, 40, inProgressChars);
      const ask = messages.map((message) => message.role).lastIndexOf('user');
      const dialogue = estimator.countMessages(messages.slice(0, ask + 1));
      const full = estimator.countMessages(messages);
      // The summary trigger (70% of the window) between the dialogue alone and the whole request.
      const contextWindow = Math.round((dialogue + full) / 2 / 0.7);
      const { summarizer, calls } = counting();
      const compactor = createCompactor({ summarizer });
      await compactor.afterResponse(messages, { conversationId: 'c', contextWindow, turnFinished: false });
      await compactor.idle();
      expect(calls() > 0, `turn in progress of ${inProgressChars} characters`).toBe(expected);
    }
  });
});

/**
 * `conversation(turns, …)` whose user messages are full of sentences the user's words keep when they
 * shorten a message, so that beside a summary the oldest are left out whole.
 */
function crowded(turns: number): Message[] {
  return conversation(turns, 120, 200).map((message, index) =>
    message.role === 'user' && index <= 2 * turns
      ? {
          ...message,
          content: Array.from(
            { length: 12 },
            (_, line) => `Check ${index}.${line}: the service must answer within ${line + 2} seconds.`,
          ).join(' '),
        }
      : message,
  );
}

/** `messages` with `sentence` added to the end of message `index`. */
function say(messages: Message[], index: number, sentence: string): void {
  const message = messages[index]!;
  messages[index] = { ...message, content: `${message.content as string} ${sentence}` };
}

describe('summarize old dialogue: the decisions a summary drops', () => {
  const theirs = 'We decided to go with Redis rather than Memcached for the session store.';
  const ours = 'I went with a canary stage instead of a full rollout for the billing service.';

  it("come back on their lines: the user's whose message the user's words leave out, and the assistant's", async () => {
    const messages = crowded(60);
    const recent = 'We settled on weekly releases rather than daily ones for the ledger.';
    say(messages, 1, theirs); // the first user message: condensed into the summary, out of the user's words
    say(messages, 2, ours); // the first answer: only the summary holds it
    say(messages, 81, recent); // a later user message, quoted beside the summary
    const { summarizer } = counting();
    const result = await compactMessages(messages, { contextWindow: 16_000, summarizer });
    expect(result.actions).toContain('summarize');
    const summary = result.state!.summaries.join('\n');
    expect(summary.split('\n')).toEqual(
      expect.arrayContaining([`Decision stated by the user: ${theirs}`, `Decision stated: ${ours}`]),
    );
    const request = JSON.stringify(result.messages);
    expect(request).toMatch(/\[user messages 1–\d+: condensed into the summary above\]/);
    // A quoted message keeps its decision in the user's words: not written twice.
    expect(request.split(recent)).toHaveLength(2);
    expect(summary).not.toContain(recent);
  });

  it('are written once across stacked summaries', async () => {
    const messages = crowded(60);
    say(messages, 1, theirs);
    const { summarizer } = counting();
    const options = { contextWindow: 16_000, summarizer, summaryMode: 'stack' as const };
    const first = await compactMessages(messages, options);
    expect(first.state!.summaries.join('\n')).toContain(`Decision stated by the user: ${theirs}`);
    // Thirty more turns: the first user message is still left out, and the first summary stays.
    const more = [...messages.slice(0, -3), ...crowded(90).slice(121, -3), ...messages.slice(-3)];
    const second = await compactMessages(more, { ...options, state: first.state });
    expect(second.state!.summaries).toHaveLength(2);
    expect(second.state!.summaries.join('\n').split(theirs)).toHaveLength(2);
  });
});
