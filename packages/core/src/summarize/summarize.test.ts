import { describe, expect, it, vi } from 'vitest';
import { agentConversation } from '../../test/conversation-fixtures';
import { InvalidConfigError } from '../errors/invalid-config-error';
import { SummarizationError } from '../errors/summarization-error';
import { createEstimator } from '../estimate/create-estimator';
import { estimateTokens } from '../estimate/estimate-tokens';
import type { Message } from '../message/message';
import { DEFAULT_SUMMARY_PROMPT } from './default-summary-prompt';
import { summarize } from './summarize';
import type { Summarizer, SummarizerInput } from './summarizer';

const conversation: Message[] = [
  {
    role: 'user',
    content: 'Fix the bug in src/server/routes.ts reported in ABC-123, see https://example.com/issues/123',
  },
  {
    role: 'assistant',
    content: [
      { type: 'tool-call', toolCallId: 'c1', toolName: 'read_file', input: { path: 'src/server/routes.ts' } },
    ],
  },
  {
    role: 'tool',
    content: [
      { type: 'tool-result', toolCallId: 'c1', toolName: 'read_file', content: 'export function route() {}' },
    ],
  },
  { role: 'assistant', content: 'The handler returns 500 when the id is missing.' },
];

describe('summarize', () => {
  it('sends the documented prompt, the previous summary and a transcript', async () => {
    const inputs: SummarizerInput[] = [];
    const result = await summarize({
      messages: conversation,
      previousSummary: 'Earlier: the user set up the project.',
      summarizer: (input) => {
        inputs.push(input);
        return 'Fixing src/server/routes.ts for ABC-123 (https://example.com/issues/123).';
      },
    });
    expect(result.summary).toContain('ABC-123');
    expect(result.calls).toBe(1);
    expect(result.chunks).toBe(1);
    const [input] = inputs;
    expect(input!.system).toBe(DEFAULT_SUMMARY_PROMPT);
    expect(input!.prompt).toContain('Earlier: the user set up the project.');
    expect(input!.prompt).toContain('User: Fix the bug');
    expect(input!.prompt).toContain('Assistant called read_file({"path":"src/server/routes.ts"})');
    expect(input!.prompt).toContain('Tool result (read_file): export function route() {}');
    expect(input!.messages).toEqual(conversation);
  });

  it('retries exactly once when the summarizer fails, and succeeds', async () => {
    const summarizer = vi
      .fn<Summarizer>()
      .mockRejectedValueOnce(new Error('503'))
      .mockResolvedValueOnce('ABC-123 src/server/routes.ts https://example.com/issues/123');
    const result = await summarize({ messages: conversation, summarizer });
    expect(summarizer).toHaveBeenCalledTimes(2);
    expect(result.calls).toBe(2);
  });

  it('throws SummarizationError after two failures, with both errors', async () => {
    const summarizer = vi
      .fn<Summarizer>()
      .mockRejectedValueOnce(new Error('first'))
      .mockRejectedValueOnce(new Error('second'));
    const error = await summarize({ messages: conversation, summarizer }).catch((caught) => caught);
    expect(SummarizationError.isInstance(error)).toBe(true);
    expect(error.attempts).toBe(2);
    expect(error.errors.map((inner: Error) => inner.message)).toEqual(['first', 'second']);
    expect(summarizer).toHaveBeenCalledTimes(2);
  });

  it('shortens a summary a little over its bound to the bound, in one call, keeping both ends', async () => {
    const estimator = createEstimator();
    for (const overshoot of [1.05, 1.3, 1.9]) {
      const lines = Array.from(
        { length: 400 },
        (_, index) => `- fact ${index}: the value of setting ${index} is ${index * 7}.`,
      );
      let text = '';
      for (const line of lines) {
        if (estimator.countText(`${text}${line}\n`) > 200 * overshoot) break;
        text += `${line}\n`;
      }
      const summarizer = vi.fn(() => text);
      const result = await summarize({
        messages: conversation,
        summarizer,
        maxSummaryTokens: 200,
        estimator,
        auditIdentifiers: false,
      });
      expect(summarizer).toHaveBeenCalledTimes(1);
      expect(estimator.countText(result.summary)).toBeLessThanOrEqual(200);
      expect(result.summary.startsWith('- fact 0:')).toBe(true);
      const lastLine = text.trim().split('\n').at(-1)!;
      expect(result.summary.trim().endsWith(lastLine)).toBe(true);
    }
  });

  it('treats a summary over twice its bound as a failed attempt (the summarizer ignored the bound)', async () => {
    const summarizer = vi.fn(() => 'word '.repeat(2_000));
    await expect(
      summarize({ messages: conversation, summarizer, maxSummaryTokens: 200 }),
    ).rejects.toBeInstanceOf(SummarizationError);
    expect(summarizer).toHaveBeenCalledTimes(2);
  });

  it('treats blank output as a failure', async () => {
    const summarizer = vi.fn<Summarizer>().mockResolvedValue('   \n ');
    await expect(summarize({ messages: conversation, summarizer })).rejects.toThrow(/blank/);
    expect(summarizer).toHaveBeenCalledTimes(2);
    const once = vi
      .fn<Summarizer>()
      .mockResolvedValueOnce({ summary: '' })
      .mockResolvedValueOnce({ summary: 'ok src/server/routes.ts ABC-123 https://example.com/issues/123' });
    expect((await summarize({ messages: conversation, summarizer: once })).summary).toContain('ok');
  });

  it('appends the identifiers a summary dropped, within its bound, without a second call', async () => {
    const summarizer = vi.fn<Summarizer>().mockResolvedValue('The user asked for a fix.');
    const result = await summarize({ messages: conversation, summarizer });
    expect(summarizer).toHaveBeenCalledTimes(1);
    const line = result.summary.split('\n').at(-1)!;
    expect(line.startsWith('Identifiers the user gave:')).toBe(true);
    for (const identifier of ['src/server/routes.ts', 'ABC-123', 'https://example.com/issues/123']) {
      expect(line).toContain(identifier);
    }
    expect(result.summary.startsWith('The user asked for a fix.')).toBe(true);

    // Nothing is appended when the summary kept them, or when the audit is off.
    const complete = vi
      .fn<Summarizer>()
      .mockResolvedValue('Fix src/server/routes.ts for ABC-123, see https://example.com/issues/123.');
    expect((await summarize({ messages: conversation, summarizer: complete })).summary).not.toMatch(
      /Identifiers/,
    );
    const noAudit = vi.fn<Summarizer>().mockResolvedValue('Vague.');
    expect(
      (await summarize({ messages: conversation, summarizer: noAudit, auditIdentifiers: false })).summary,
    ).toBe('Vague.');
    expect(noAudit).toHaveBeenCalledTimes(1);

    // Within the bound: a summary already at it is shortened in the middle to make room.
    const long = vi.fn<Summarizer>().mockResolvedValue('The user asked about the routes. '.repeat(18));
    const bounded = await summarize({ messages: conversation, summarizer: long, maxSummaryTokens: 120 });
    expect(estimateTokens(bounded.summary)).toBeLessThanOrEqual(120);
    expect(bounded.summary).toContain('ABC-123');
  });

  it('appends the identifiers the tool results mentioned, in a tenth of the bound at least', async () => {
    const messages: Message[] = [
      { role: 'user', content: 'Why did the deploy fail?' },
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'deploy_log', input: {} }],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'deploy_log',
            content: 'deploy dep-7f3a9c2e failed: /srv/app/config.yaml missing, see req_91x2ab',
          },
        ],
      },
      { role: 'assistant', content: 'The config file is missing.' },
    ];
    const summarizer = vi.fn<Summarizer>().mockResolvedValue('The deploy failed on a missing config.');
    const result = await summarize({ messages, summarizer });
    expect(summarizer).toHaveBeenCalledTimes(1);
    const line = result.summary.split('\n').at(-1)!;
    expect(line.startsWith('Identifiers the tools returned:')).toBe(true);
    for (const identifier of ['dep-7f3a9c2e', '/srv/app/config.yaml', 'req_91x2ab'])
      expect(line).toContain(identifier);
    expect(result.summary.startsWith('The deploy failed on a missing config.')).toBe(true);

    // Given explicitly (the engine passes what the results held before they were stubbed).
    const given = await summarize({ messages, summarizer, toolIdentifiers: ['trace-41ab9c'] });
    expect(given.summary.split('\n').at(-1)).toBe('Identifiers the tools returned: trace-41ab9c');

    // A summary that fills its bound gives way (its middle) to a line of a tenth of the bound: once
    // the results are summarized, the line is the only place their identifiers are left.
    let text = 'The deploy failed.';
    while (estimateTokens(`${text} It was retried on the same host. The config is missing.`) <= 298) {
      text += ' It was retried on the same host.';
    }
    const full = vi.fn<Summarizer>().mockResolvedValue(`${text} The config is missing.`);
    const bounded = await summarize({ messages, summarizer: full, maxSummaryTokens: 300 });
    expect(estimateTokens(bounded.summary)).toBeLessThanOrEqual(300);
    expect(bounded.summary.startsWith('The deploy failed.')).toBe(true);
    expect(bounded.summary).toContain('The config is missing.');
    expect(bounded.summary.split('\n').at(-1)).toMatch(/^Identifiers the tools returned: .*dep-7f3a9c2e/);
  });

  it('appends the decisions the assistant stated that the summary left out, verbatim, and carries them on', async () => {
    const decision = 'I went with blue-green deploys over rolling deploys since it rolls back in a minute.';
    const messages: Message[] = [
      { role: 'user', content: 'How should we deploy the ledger?' },
      { role: 'assistant', content: `I compared both. ${decision} The pipeline is ready.` },
    ];
    const vague = vi.fn<Summarizer>().mockResolvedValue('The deploy was discussed.');
    const first = await summarize({ messages, summarizer: vague });
    expect(vague).toHaveBeenCalledTimes(1);
    expect(first.summary.split('\n')).toContain(`Decision stated: ${decision}`);
    // Kept by the summary: nothing appended; dropped again later: carried on from the previous one.
    const faithful = vi.fn<Summarizer>().mockResolvedValue(`The ledger deploys are settled. ${decision}`);
    expect((await summarize({ messages, summarizer: faithful })).summary).not.toContain('Decision stated:');
    const later = await summarize({
      messages: [{ role: 'user', content: 'Next, the webhooks.' }],
      previousSummary: first.summary,
      summarizer: vague,
    });
    expect(later.summary.match(/Decision stated:/g)).toHaveLength(1);
    expect(later.summary).toContain(decision);
  });

  it("appends the user's decisions it is given on their own lines, and carries them on as the user's", async () => {
    const mine = 'We settled on weekly releases rather than daily ones for the ledger.';
    const yours = 'I went with a canary stage instead of a full rollout.';
    const messages: Message[] = [
      { role: 'user', content: `Some history first. ${mine}` },
      { role: 'assistant', content: `Understood. ${yours}` },
    ];
    const vague = vi.fn<Summarizer>().mockResolvedValue('Release cadence was discussed.');
    const first = await summarize({ messages, summarizer: vague });
    expect(first.summary.split('\n')).toEqual(
      expect.arrayContaining([`Decision stated by the user: ${mine}`, `Decision stated: ${yours}`]),
    );
    // Given explicitly: only those (a caller whose user's words are quoted elsewhere passes none of them).
    const given = await summarize({
      messages,
      summarizer: vague,
      decisions: [{ text: yours, by: 'assistant' }],
    });
    expect(given.summary).not.toContain(mine);
    const later = await summarize({
      messages: [{ role: 'user', content: 'Next, the webhooks.' }],
      previousSummary: first.summary,
      summarizer: vague,
    });
    expect(later.summary.split('\n')).toEqual(
      expect.arrayContaining([`Decision stated by the user: ${mine}`, `Decision stated: ${yours}`]),
    );
    expect(later.summary.match(/Decision stated/g)).toHaveLength(2);
  });

  it('rejects decisions that are not { text, by } (plain sentences, an unknown speaker)', async () => {
    const summarizer = vi.fn<Summarizer>().mockResolvedValue('A summary.');
    for (const decisions of [['We went with Redis.'], [{ text: 'We went with Redis.', by: 'tool' }], 'x']) {
      const call = summarize({ messages: conversation, summarizer, decisions: decisions as never });
      await expect(call).rejects.toBeInstanceOf(InvalidConfigError);
      await expect(call).rejects.toThrow(/"decisions"/);
    }
    expect(summarizer).not.toHaveBeenCalled();
  });

  it('lists again what shortening the summary for the lines cut out of it', async () => {
    // The summary names ABC-123 in its middle only; the user's line takes room, the middle goes.
    const middle = vi
      .fn<Summarizer>()
      .mockResolvedValue(
        `The user asked for a fix. ${'The routes were read. '.repeat(18)}It is tracked as ABC-123. ${'The routes were read again. '.repeat(18)}Done.`,
      );
    const { summary } = await summarize({
      messages: conversation,
      summarizer: middle,
      maxSummaryTokens: 220,
    });
    expect(estimateTokens(summary)).toBeLessThanOrEqual(220);
    const body = summary.slice(0, summary.indexOf('Identifiers the user gave:'));
    expect(body).not.toContain('ABC-123');
    expect(summary.split('\n').at(-1)).toMatch(/^Identifiers the user gave: .*ABC-123/);
  });

  it('names one thing of each result before a second of any, and bare numbers and series last', async () => {
    const result = (id: string, content: string): Message[] => [
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: id, toolName: 'logs', input: {} }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: id, toolName: 'logs', content }] },
    ];
    const messages: Message[] = [
      { role: 'user', content: 'Check the logs.' },
      // Each log names its instances (a series) on every line, and one id that stands alone.
      ...result(
        'c1',
        'INFO ledger-1 up\nINFO ledger-2 up\nINFO ledger-3 up\nrequest req_a8f2k19x7 done in /srv/a/one.ts',
      ),
      ...result(
        'c2',
        'INFO ledger-4 up\nINFO ledger-5 up\nINFO ledger-6 up\nrequest req_b91x2ab7q done in /srv/b/two.ts',
      ),
      ...result(
        'c3',
        'INFO ledger-7 up\nINFO ledger-8 up\nINFO ledger-9 up\nrequest req_c5kq0zt3m done in /srv/c/six.ts',
      ),
    ];
    // A summary that leaves no room: the line has its tenth of the bound, room for a few names.
    const summarizer = vi
      .fn<Summarizer>()
      .mockResolvedValue(`The logs were checked. ${'All up. '.repeat(200)}`);
    const { summary } = await summarize({ messages, summarizer, maxSummaryTokens: 400 });
    const line = summary.split('\n').at(-1)!;
    expect(line.startsWith('Identifiers the tools returned:')).toBe(true);
    const named = line.slice('Identifiers the tools returned:'.length).split(', ');
    expect(named.length).toBeLessThan(6);
    // One of each result (its best: the path) before a second of any, and no instance of a series.
    for (const path of ['/srv/a/one.ts', '/srv/b/two.ts', '/srv/c/six.ts']) expect(line).toContain(path);
    expect(line).not.toMatch(/ledger-\d/);
  });

  it('carries the identifier lines of the previous summary on, once, when the summarizer drops them', async () => {
    const previousSummary =
      'The user set up the project.\n\nIdentifiers the user gave: PAY-4410\n\nIdentifiers the tools returned: dep-7f3a9c2e';
    const dropped = vi.fn<Summarizer>().mockResolvedValue('The user asked for a fix.');
    const first = await summarize({ messages: conversation, previousSummary, summarizer: dropped });
    const lines = first.summary.split('\n').filter((line) => line.startsWith('Identifiers'));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^Identifiers the user gave: PAY-4410, .*ABC-123/);
    expect(lines[1]).toBe('Identifiers the tools returned: dep-7f3a9c2e');

    // A summarizer that copies the lines: they are rebuilt, not doubled.
    const copied = vi.fn<Summarizer>().mockResolvedValue(`The user asked for a fix.\n\n${previousSummary}`);
    const second = await summarize({ messages: conversation, previousSummary, summarizer: copied });
    expect(second.summary.match(/Identifiers the user gave:/g)).toHaveLength(1);
    expect(second.summary.match(/Identifiers the tools returned:/g)).toHaveLength(1);
    expect(second.summary).toContain('PAY-4410');
    expect(second.summary).toContain('dep-7f3a9c2e');
  });

  it("lists the identifiers of the user's earlier words a merged summary cut from its predecessor", async () => {
    // A predecessor that named the account in its own words (no identifiers line to carry on), and
    // a summarizer that cuts it: the audit knows what the predecessor stood in for.
    const previousSummary = 'Digest: the user asked about the ledger. Identifiers mentioned: ACC-870123';
    const earlierUserTexts = ['The account in question is ACC-870123, by the way.', 'Thanks.'];
    const merge = (summarizer: Summarizer) =>
      summarize({ messages: conversation, previousSummary, summarizer, earlierUserTexts });
    const cut = vi.fn<Summarizer>().mockResolvedValue('Digest: the user asked for a fix of the routes.');
    const merged = await merge(cut);
    expect(merged.summary.split('\n').at(-1)).toMatch(/^Identifiers the user gave: ACC-870123, .*ABC-123/);
    // Without them, only the span's own identifiers are checked: the account is gone.
    const alone = await summarize({ messages: conversation, previousSummary, summarizer: cut });
    expect(alone.summary).not.toContain('ACC-870123');
    // One the new summary still names is not listed again.
    const again = await merge(
      vi.fn<Summarizer>().mockResolvedValue('Digest: ACC-870123 and the routes fix.'),
    );
    expect(again.summary.match(/ACC-870123/g)).toHaveLength(1);
  });

  it('does not list a pasted table of numbers as identifiers the user gave', async () => {
    const table = Array.from({ length: 40 }, (_, row) => `${row + 100} ${row * 37 + 510} ok`).join('\n');
    const messages: Message[] = [
      { role: 'user', content: `Here are the counts for PAY-3390 on port 48213:\n${table}` },
      { role: 'assistant', content: 'Counts look fine.' },
    ];
    const summarizer = vi.fn<Summarizer>().mockResolvedValue('The user shared counts.');
    const { summary } = await summarize({ messages, summarizer });
    expect(summary.split('\n').at(-1)).toBe('Identifiers the user gave: PAY-3390');
    const single: Message[] = [{ role: 'user', content: 'The service listens on port 48213.' }];
    expect((await summarize({ messages: single, summarizer })).summary).toContain('48213');
  });

  it('pins only the standing instructions the summarizer quotes verbatim from the user', async () => {
    const messages: Message[] = [
      { role: 'user', content: 'Commit messages should be written in French from here. Fix the login bug.' },
      { role: 'assistant', content: 'Done.' },
      { role: 'tool' as const, content: [] },
    ].slice(0, 2) as Message[];
    const summarizer = vi
      .fn<Summarizer>()
      .mockResolvedValue(
        'The user wants the login bug fixed.\n\nStanding instructions:\n- "Commit messages should be written in French from here."\n- Always deploy on Fridays.\n',
      );
    const result = await summarize({ messages, summarizer, auditIdentifiers: false });
    expect(result.standingInstructions).toEqual([
      { text: 'Commit messages should be written in French from here.', messageNumber: 0 },
    ]);
    expect(result.summary).toBe('The user wants the login bug fixed.');
  });

  it('summarizes a span larger than its own budget in chunks, oldest first, folding each in', async () => {
    const messages = agentConversation({ turns: 30, toolResultChars: 4000, system: false });
    const inputs: SummarizerInput[] = [];
    const result = await summarize({
      messages,
      maxInputTokens: 8_000,
      auditIdentifiers: false,
      summarizer: (input) => {
        inputs.push(input);
        return `summary #${inputs.length}`;
      },
    });
    expect(result.chunks).toBeGreaterThan(1);
    expect(inputs.length).toBe(result.chunks);
    expect(result.summary).toBe(`summary #${result.chunks}`);
    expect(inputs[0]!.previousSummary).toBeUndefined();
    expect(inputs[1]!.previousSummary).toBe('summary #1');
    expect(inputs[1]!.prompt).toContain('summary #1');
    // Oldest first and every message in exactly one chunk.
    expect(inputs.flatMap((input) => input.messages)).toEqual(messages);
    expect(inputs[0]!.transcript).toContain('Turn 0:');
  });

  it('hands memories to onMemory, from objects and from MEMORY: lines', async () => {
    const received: string[][] = [];
    const fromText = await summarize({
      messages: conversation,
      auditIdentifiers: false,
      onMemory: (memories) => {
        received.push([...memories]);
      },
      summarizer: ({ system }) => {
        expect(system).toContain('MEMORY: ');
        return 'The summary.\nMEMORY: The user prefers tabs.\nMEMORY: Deploys go through CI.';
      },
    });
    expect(fromText.summary).toBe('The summary.');
    expect(received).toEqual([['The user prefers tabs.', 'Deploys go through CI.']]);

    const fromObject = await summarize({
      messages: conversation,
      auditIdentifiers: false,
      onMemory: () => {
        throw new Error('memory store down');
      },
      summarizer: () => ({ summary: 'S', memories: ['fact'] }),
    });
    expect(fromObject.memories).toEqual(['fact']);
    expect((fromObject.memoryError as Error).message).toBe('memory store down');
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      summarize({ messages: conversation, summarizer: () => 'x', abortSignal: controller.signal }),
    ).rejects.toThrow();
  });
});
