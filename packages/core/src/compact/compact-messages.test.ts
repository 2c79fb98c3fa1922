import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { agentConversation, assertToolPairsIntact, deepFreeze } from '../../test/conversation-fixtures';
import { ContextOverflowError } from '../errors/context-overflow-error';
import { InvalidConfigError } from '../errors/invalid-config-error';
import { createEstimator } from '../estimate/create-estimator';
import type { Message, MessagePart, ToolResultContentPart, ToolResultPart } from '../message/message';
import { extractIdentifiers } from '../summarize/extract-identifiers';
import type { Summarizer } from '../summarize/summarizer';
import { compactMessages } from './compact-messages';
import type { CompactionEvent } from './compaction-event';

const estimator = createEstimator();
const tokensOf = (messages: readonly Message[]) => estimator.countMessages(messages);

/** A model-like summarizer that records its calls and keeps the identifiers it is shown. */
function recordingSummarizer() {
  const calls: Array<{ previousSummary: string | undefined; count: number }> = [];
  const summarizer: Summarizer = ({ messages, previousSummary }) => {
    calls.push({ previousSummary, count: messages.length });
    const userText = messages
      .filter((message) => message.role === 'user')
      .map((message) => String(message.content))
      .join('\n');
    return `Summary ${calls.length} of ${messages.length} messages. Mentions: ${extractIdentifiers(userText, { limit: 100_000 }).join(', ')}`;
  };
  return { summarizer, calls };
}

describe('compactMessages: no-ops', () => {
  it('does nothing to an empty conversation or a single user message', async () => {
    expect((await compactMessages([], { contextWindow: 1000 })).messages).toEqual([]);
    const one: Message[] = [{ role: 'user', content: 'hello' }];
    const result = await compactMessages(one, { contextWindow: 1000 });
    expect(result.messages[0]).toBe(one[0]);
    expect(result.actions).toEqual([]);
    expect(result.state).toBeUndefined();
  });

  it('returns the very same objects when under the threshold', async () => {
    const messages = deepFreeze(agentConversation({ turns: 3, toolResultChars: 500 }));
    const result = await compactMessages(messages, { contextWindow: 1_000_000 });
    expect(result.messages).toHaveLength(messages.length);
    for (const [index, message] of result.messages.entries()) expect(message).toBe(messages[index]);
    expect(result.actions).toEqual([]);
    expect(result.stateChanged).toBe(false);
  });

  it('with an unknown context window: no compaction, but the storage cap still applies', async () => {
    const messages = deepFreeze(agentConversation({ turns: 40, toolResultChars: 40_000 }));
    const events: CompactionEvent[] = [];
    const result = await compactMessages(messages, { onEvent: (event) => events.push(event) });
    expect(result.messages).toHaveLength(messages.length);
    expect(result.actions).toEqual(['cap-tool-results']);
    expect(result.state).toBeUndefined();
    const results = result.messages.flatMap((message) =>
      typeof message.content === 'string'
        ? []
        : message.content.filter((part) => part.type === 'tool-result'),
    );
    for (const part of results) {
      const text = typeof part.content === 'string' ? part.content : '';
      expect(text.length).toBeLessThanOrEqual(30_000);
      // The seed's marker, then the reference to the original and where the cut begins.
      expect(text).toMatch(
        /\n\n\[\.\.\. content truncated, showing first (\d+) characters of 40000 total \.\.\.\]\n\[ref=t\.[A-Za-z0-9]{12} offset=\1\]$/,
      );
    }
    expect(events.some((event) => event.type === 'truncation')).toBe(true);
    // User and assistant messages are untouched objects.
    expect(result.messages[1]).toBe(messages[1]);
  });

  it('treats a conversation that is only the current turn as nothing to summarize', async () => {
    const messages: Message[] = [{ role: 'user', content: 'word '.repeat(700) }];
    const result = await compactMessages(messages, { contextWindow: 1000 });
    expect(result.state).toBeUndefined();
    expect(result.messages[0]).toBe(messages[0]);
  });

  it('fails fast, before any provider call, when the user message alone cannot fit', async () => {
    const messages: Message[] = [
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'word '.repeat(4000) },
    ];
    const summarizer = vi.fn(() => 'never');
    const error = await compactMessages(messages, { contextWindow: 1000, summarizer }).catch(
      (caught: unknown) => caught,
    );
    expect(ContextOverflowError.isInstance(error)).toBe(true);
    const overflow = error as ContextOverflowError;
    expect(overflow.contextWindow).toBe(1000);
    // Refused only when it cannot fit the window itself (a request just over the compact threshold
    // that fits the window is sent).
    expect(overflow.budgetTokens).toBe(1000);
    expect(overflow.tokenCount).toBeGreaterThan(1000);
    expect(overflow.unshrinkable!.userText).toBeGreaterThan(3000);
    expect(overflow.unshrinkable!.system).toBeGreaterThan(0);
    expect(overflow.message).toMatch(/No request was sent/);
    expect(summarizer).not.toHaveBeenCalled();
  });
});

describe('compactMessages: compaction', () => {
  const messages = deepFreeze(agentConversation({ turns: 30, toolResultChars: 3000, screenshotEvery: 5 }));
  const total = tokensOf(messages);
  // 120% of the window: removing old screenshots alone cannot bring it back under the threshold.
  const contextWindow = Math.floor(total / 1.2);
  // One summarizer call per compaction (chunking is tested in summarize.test.ts). The reductions
  // that need no model are off, so the dialogue itself is over the window and must be summarized:
  // these tests are about summaries (the order of the tiers is tested below).
  const base = {
    contextWindow,
    summarizerMaxInputTokens: 1_000_000,
    supersedeToolResults: false,
    toolResultReduction: false,
    imagePlaceholders: false,
  } as const;

  it('summarizes the older part, keeps the recent part verbatim and the system prompt after the summary', async () => {
    const { summarizer, calls } = recordingSummarizer();
    const result = await compactMessages(messages, { ...base, summarizer });
    expect(calls).toHaveLength(1);
    expect(result.stateChanged).toBe(true);
    expect(result.actions).toContain('summarize');
    const [summary, system, ...rest] = result.messages;
    expect(summary!.role).toBe('system');
    expect(summary!.content).toContain('Summary 1 of');
    expect(system).toBe(messages[0]);
    // The recent messages are the caller's own objects, in order, ending with the last message.
    for (const message of rest) expect(messages).toContain(message);
    expect(rest.at(-1)).toBe(messages.at(-1));
    assertToolPairsIntact(rest);
    expect(result.tokensAfter).toBeLessThan(contextWindow * 0.85);
    expect(result.state!.coveredCount + rest.length).toBe(messages.length - 1);
    expect(result.state!.summaries).toHaveLength(1);
    expect(result.state!.summaries[0]).toMatch(new RegExp(`^Summary 1 of ${calls[0]!.count} messages`));
  });

  it('applies the stored summary on the next request: same prefix, no new summary', async () => {
    const { summarizer, calls } = recordingSummarizer();
    const first = await compactMessages(messages, { ...base, summarizer });
    const grown = [...messages, { role: 'user', content: 'One more question.' } as Message];
    const second = await compactMessages(grown, { ...base, summarizer, state: first.state });
    expect(calls).toHaveLength(1);
    expect(second.stateChanged).toBe(false);
    expect(second.actions).toContain('apply-summary');
    expect(second.messages.slice(0, first.messages.length)).toEqual(first.messages);
    expect(second.messages.at(-1)).toBe(grown.at(-1));
  });

  it('ignores a state whose covered prefix changed (edited or branched history)', async () => {
    const { summarizer } = recordingSummarizer();
    const first = await compactMessages(messages, { ...base, summarizer });
    const edited = [
      messages[0]!,
      { role: 'user', content: 'A different start.' } as Message,
      ...messages.slice(2),
    ];
    const second = await compactMessages(edited, {
      contextWindow: contextWindow * 10,
      summarizer,
      state: first.state,
    });
    expect(second.actions).not.toContain('apply-summary');
    expect(second.state).toBeUndefined();
    for (const [index, message] of second.messages.entries()) expect(message).toBe(edited[index]);
  });

  it('merges the previous summary into one cumulative summary', async () => {
    const { summarizer, calls } = recordingSummarizer();
    const first = await compactMessages(messages, { ...base, summarizer });
    const more = [
      ...messages,
      ...agentConversation({ turns: 30, toolResultChars: 3000, system: false, seed: 2 }),
    ];
    const second = await compactMessages(more, { ...base, summarizer, state: first.state });
    expect(second.stateChanged).toBe(true);
    expect(calls[1]!.previousSummary).toBe(first.state!.summaries[0]);
    expect(second.state!.summaries).toHaveLength(1);
    expect(second.state!.compactionCount).toBe(2);
    expect(second.state!.coveredCount).toBeGreaterThan(first.state!.coveredCount);
  });

  it('stacks one summary per compaction in stack mode', async () => {
    const { summarizer, calls } = recordingSummarizer();
    const first = await compactMessages(messages, { ...base, summarizer, summaryMode: 'stack' });
    const more = [
      ...messages,
      ...agentConversation({ turns: 30, toolResultChars: 3000, system: false, seed: 2 }),
    ];
    const second = await compactMessages(more, {
      ...base,
      summarizer,
      summaryMode: 'stack',
      state: first.state,
    });
    expect(calls[1]!.previousSummary).toBeUndefined();
    expect(second.state!.summaries).toHaveLength(2);
    expect(second.state!.summaries[0]).toBe(first.state!.summaries[0]);
    expect(second.state!.summaries[1]).toMatch(new RegExp(`^Summary 2 of ${calls[1]!.count} messages`));
    expect(second.messages[0]!.content).toContain('[Compaction Summary]: Summary 1');
  });

  it('folds a stack that, with a new summary, could outgrow the summary bound into one summary', async () => {
    const { calls } = recordingSummarizer();
    // Each summary takes about 60% of the 2,048-token bound: two would not fit together.
    const bulky: Summarizer = ({ messages: covered, previousSummary }) => {
      calls.push({ previousSummary, count: covered.length });
      return `Summary ${calls.length}. ${'detail '.repeat(1_200)}`;
    };
    const options = { ...base, summaryMode: 'stack' as const, summarizer: bulky, auditIdentifiers: false };
    const first = await compactMessages(messages, options);
    const more = [
      ...messages,
      ...agentConversation({ turns: 30, toolResultChars: 3000, system: false, seed: 2 }),
    ];
    const second = await compactMessages(more, { ...options, state: first.state });
    // The first summary takes over half the bound: the second compaction merges it.
    expect(calls[1]!.previousSummary).toBe(first.state!.summaries[0]);
    expect(second.state!.summaries).toHaveLength(1);
  });

  it('places the summary as a leading user message when asked', async () => {
    const result = await compactMessages(messages, { ...base, summaryPlacement: 'user' });
    expect(result.messages[0]).toBe(messages[0]);
    expect(result.messages[1]!.role).toBe('user');
    expect(result.messages[1]!.content).toContain('Summary of the earlier conversation');
  });

  it('retries a failing summarizer once and succeeds', async () => {
    const summarizer = vi
      .fn<Summarizer>()
      .mockRejectedValueOnce(new Error('overloaded'))
      .mockResolvedValueOnce('A fine summary.');
    const result = await compactMessages(messages, { ...base, summarizer, auditIdentifiers: false });
    expect(summarizer).toHaveBeenCalledTimes(2);
    expect(result.state!.summaries).toEqual(['A fine summary.']);
  });

  it('falls back to dropping the oldest messages from the request when the summarizer fails twice', async () => {
    const summarizer = vi.fn<Summarizer>().mockRejectedValue(new Error('down'));
    const events: CompactionEvent[] = [];
    const result = await compactMessages(messages, {
      ...base,
      summarizer,
      onEvent: (event) => events.push(event),
    });
    expect(summarizer).toHaveBeenCalledTimes(2);
    expect(result.stateChanged).toBe(false);
    expect(result.state).toBeUndefined();
    expect(result.actions).toEqual(expect.arrayContaining(['summarize-failed', 'drop-oldest']));
    const failed = events.find((event) => event.type === 'compaction-failed');
    expect(failed).toMatchObject({ fallback: 'drop-oldest' });
    expect(result.tokensAfter).toBeLessThan(contextWindow * 0.85);
    const note = result.messages.find(
      (message) => typeof message.content === 'string' && message.content.startsWith('[System:'),
    );
    expect(note!.content).toMatch(/^\[System: \d+ older messages were truncated due to context limits\]/);
    expect(note!.content).toContain('Turn 0: please check src/module0.ts');
    assertToolPairsIntact(result.messages);
    expect(result.messages.at(-1)).toBe(messages.at(-1));
  });

  it('treats a blank summary as a failure (and the given state stays as it was)', async () => {
    const { summarizer } = recordingSummarizer();
    const first = await compactMessages(messages, { ...base, summarizer });
    const more = [
      ...messages,
      ...agentConversation({ turns: 30, toolResultChars: 3000, system: false, seed: 3 }),
    ];
    const blank = vi.fn<Summarizer>().mockResolvedValue('  ');
    const second = await compactMessages(more, { ...base, summarizer: blank, state: first.state });
    expect(blank).toHaveBeenCalledTimes(2);
    expect(second.stateChanged).toBe(false);
    expect(second.state).toBe(first.state);
    expect(second.actions).toContain('summarize-failed');
    expect(second.tokensAfter).toBeLessThan(contextWindow * 0.85);
  });

  it('compacts before sending after a switch to a much smaller window', async () => {
    const big = await compactMessages(messages, { contextWindow: 1_000_000 });
    expect(big.actions).toEqual([]);
    const small = await compactMessages(messages, { contextWindow: 8_000 });
    expect(small.tokensAfter).toBeLessThan(8_000);
    assertToolPairsIntact(small.messages);
  });

  it('clears old tool output before it summarizes anything: every word of the dialogue stays', async () => {
    const summarizer = vi.fn<Summarizer>().mockResolvedValue('S');
    const result = await compactMessages(messages, { contextWindow, summarizer });
    expect(summarizer).not.toHaveBeenCalled();
    expect(result.actions).toContain('stub-tool-results');
    expect(result.tokensAfter).toBeLessThan(contextWindow * 0.85);
    const sent = JSON.stringify(result.messages);
    for (const message of messages) {
      if (message.role === 'user' || message.role === 'assistant') {
        for (const part of typeof message.content === 'string'
          ? [{ type: 'text', text: message.content }]
          : message.content) {
          if (part.type === 'text') expect(sent).toContain(JSON.stringify(part.text).slice(1, -1));
        }
      }
    }
    // A stub names what the result was, what it mentioned, and where to read it back.
    expect(sent).toMatch(/\[cleared: \w+ output, [\d,]+ chars[^\]]*\] \[ref=t\.[A-Za-z0-9]{12}\]/);
    assertToolPairsIntact(result.messages);
  });

  it('replaces old screenshots with placeholders before summarizing', async () => {
    const summarizer = vi.fn<Summarizer>().mockResolvedValue('S');
    // Just over the threshold: the reductions alone bring it back under.
    const window = Math.floor(total / 0.86);
    const result = await compactMessages(messages, { contextWindow: window, summarizer });
    expect(result.actions).toContain('replace-images');
    const text = JSON.stringify(result.messages);
    // Placeholders first; the step that lasts may then stub or fold the results that held them.
    const images = (text: string) => text.split('"type":"image"').length - 1;
    expect(images(text)).toBeLessThan(images(JSON.stringify(messages)));
    expect(summarizer).not.toHaveBeenCalled();
    expect(result.tokensAfter).toBeLessThan(window * 0.85);
  });

  it('reports start and end with token counts, and survives a throwing event handler', async () => {
    const events: CompactionEvent[] = [];
    await compactMessages(messages, {
      ...base,
      onEvent: (event) => {
        events.push(event);
        throw new Error('handler bug');
      },
    });
    const start = events.find((event) => event.type === 'compaction-start');
    const end = events.find((event) => event.type === 'compaction-end');
    expect(start).toMatchObject({ reason: 'threshold' });
    expect(end).toMatchObject({ reason: 'threshold', summarizerCalls: 1 });
    if (end?.type === 'compaction-end') expect(end.tokensAfter).toBeLessThan(end.tokensBefore);
  });
});

describe('compactMessages: emergency and overflow', () => {
  it('drops the oldest groups with the marker when no summary may be made and the prompt is over 95%', async () => {
    const messages = deepFreeze(agentConversation({ turns: 20, toolResultChars: 1500 }));
    const contextWindow = Math.floor(tokensOf(messages) / 1.2);
    const events: CompactionEvent[] = [];
    const result = await compactMessages(messages, {
      contextWindow,
      allowSummarize: false,
      toolResultReduction: false,
      onEvent: (event) => events.push(event),
    });
    expect(result.actions).toContain('drop-oldest');
    expect(result.tokensAfter).toBeLessThan(contextWindow * 0.85);
    expect(events.find((event) => event.type === 'emergency-truncation')).toBeDefined();
    expect(result.messages[0]).toBe(messages[0]);
    expect(result.messages[1]!.content).toMatch(
      /^\[System: \d+ older messages were truncated due to context limits\]/,
    );
    assertToolPairsIntact(result.messages);
  });

  it('reports each truncation once per request, even when stages redo the reductions', async () => {
    const messages = deepFreeze(agentConversation({ turns: 12, toolResultChars: 9000, screenshotEvery: 3 }));
    const contextWindow = Math.floor(tokensOf(messages) / 4);
    const events: CompactionEvent[] = [];
    // No summary may be made: the reductions run at each stage and again after the drop.
    const result = await compactMessages(messages, {
      contextWindow,
      allowSummarize: false,
      onEvent: (event) => events.push(event),
    });
    const keys = events
      .flatMap((event) => (event.type === 'truncation' ? event.records : []))
      .map((record) => `${record.kind}:${record.messageIndex}:${record.toolCallId}`);
    expect(keys.length).toBeGreaterThan(0);
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set(result.actions).size).toBe(result.actions.length);
  });

  it('shrinks step by step on overflow retries, even with an unknown window', async () => {
    const messages = deepFreeze(agentConversation({ turns: 12, toolResultChars: 8000 }));
    let previous = Number.POSITIVE_INFINITY;
    const sizes: number[] = [];
    for (const overflowAttempt of [1, 2, 3, 4]) {
      const result = await compactMessages(messages, { overflowAttempt });
      expect(result.actions).toContain('summarize');
      assertToolPairsIntact(result.messages);
      expect(result.messages.at(-1)?.role).toBe(messages.at(-1)?.role);
      expect(result.tokensAfter).toBeLessThanOrEqual(previous);
      previous = result.tokensAfter;
      sizes.push(result.tokensAfter);
    }
    expect(sizes[3]!).toBeLessThan(tokensOf(messages) / 2);
  });
});

describe('compactMessages: parts it does not understand', () => {
  it('carries opaque parts through untouched, also inside results it shortens', async () => {
    const providerItem = {
      type: 'opaque',
      value: { type: 'reasoning-file', data: 'AAAA', providerOptions: { x: 1 } },
    } as const;
    const approval = {
      type: 'opaque',
      value: { type: 'tool-approval-response', approvalId: 'a1', approved: true },
    } as const;
    const insideResult = {
      type: 'opaque',
      value: { type: 'custom', kind: 'citation', url: 'https://example.com' },
    } as const;
    const messages: Message[] = deepFreeze([
      { role: 'user', content: 'Read the log.' },
      {
        role: 'assistant',
        content: [providerItem, { type: 'tool-call', toolCallId: 't1', toolName: 'read_log', input: {} }],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 't1',
            toolName: 'read_log',
            content: [{ type: 'text', text: 'line\n'.repeat(20_000) }, insideResult],
          },
          approval,
        ],
      },
      { role: 'assistant', content: 'The log is long.' },
    ]);
    const result = await compactMessages(messages, { contextWindow: 1_000_000 });
    expect(result.actions).toEqual(['cap-tool-results']);
    expect(result.messages[1]).toBe(messages[1]);
    const tool = result.messages[2]!;
    expect(tool).not.toBe(messages[2]);
    const [toolResult, keptApproval] = tool.content as readonly MessagePart[];
    expect(keptApproval).toBe(approval);
    const resultContent = (toolResult as ToolResultPart).content as readonly ToolResultContentPart[];
    expect(resultContent[1]).toBe(insideResult);
    expect((resultContent[0] as { text: string }).text.length).toBeLessThanOrEqual(30_000);
  });
});

describe('compactMessages: the newest tool result on the last overflow attempt', () => {
  it('is shortened head + tail when nothing else is left to shrink', async () => {
    const messages: Message[] = deepFreeze([
      { role: 'user', content: 'Fetch the page.' },
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'f', toolName: 'fetch', input: { url: 'https://x.example' } },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'f', toolName: 'fetch', content: 'word '.repeat(40_000) },
        ],
      },
    ]);
    const result = await compactMessages(messages, { overflowAttempt: 4 });
    const part = (result.messages.at(-1)!.content as readonly ToolResultPart[])[0]!;
    expect(part.toolCallId).toBe('f');
    expect((part.content as string).length).toBeLessThanOrEqual(2_000);
    expect(part.content as string).toMatch(/\.\.\. \[truncated: \d+ chars removed\] \.\.\./);
    expect(part.isError).toBeUndefined();
    assertToolPairsIntact(result.messages);
  });
});

describe('compactMessages: options', () => {
  it('rejects bad options with the option named', async () => {
    await expect(compactMessages([], { contextWindow: -5 })).rejects.toThrow(InvalidConfigError);
    await expect(compactMessages([], { thresholds: { compact: 1.5 } })).rejects.toThrow(/thresholds.compact/);
    await expect(compactMessages([], { thresholds: { background: 0.9, compact: 0.85 } })).rejects.toThrow(
      /background <= compact/,
    );
    await expect(compactMessages([], { protectedRatio: 0.9 })).rejects.toThrow(/protectedRatio/);
    await expect(compactMessages([], { summarizer: 'gpt-4o' as never })).rejects.toThrow(/summarizer/);
    await expect(compactMessages([], { toolResultLimits: { read_file: 0 } })).rejects.toThrow(
      /toolResultLimits.read_file/,
    );
  });

  it('applies per-tool limits', async () => {
    const messages = agentConversation({ turns: 2, toolResultChars: 5000 });
    const result = await compactMessages(messages, { toolResultLimits: { read_file: 1000 } });
    const text = JSON.stringify(result.messages);
    expect(text).toContain('showing first');
    const runTests = result.messages.flatMap((message) =>
      typeof message.content === 'string'
        ? []
        : message.content.filter((part) => part.type === 'tool-result' && part.toolName === 'run_tests'),
    );
    for (const part of runTests) expect((part as { content: string }).content.length).toBe(5000);
  });
});

describe('compactMessages: properties', () => {
  it('never mutates its input, never orphans a tool call or result, keeps the last message, and fits when it can', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 25 }),
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 100, max: 12_000 }),
        fc.double({ min: 0.3, max: 3, noNaN: true }),
        fc.integer({ min: 0, max: 10_000 }),
        async (turns, toolCallsPerTurn, parallelEvery, toolResultChars, windowShare, seed) => {
          const messages = deepFreeze(
            agentConversation({
              turns,
              toolCallsPerTurn,
              parallelEvery,
              toolResultChars,
              screenshotEvery: 4,
              seed,
            }),
          );
          const contextWindow = Math.max(2_000, Math.floor(tokensOf(messages) * windowShare));
          const result = await compactMessages(messages, { contextWindow });
          assertToolPairsIntact(result.messages);
          expect(result.messages.at(-1)).toBe(messages.at(-1));
          // Every message the result shares with the input is the same object, in order.
          const kept = result.messages.filter((message) => messages.includes(message));
          const positions = kept.map((message) => messages.indexOf(message));
          expect([...positions].sort((a, b) => a - b)).toEqual(positions);
          // A conversation that began with the user still begins with a user message (Anthropic).
          expect(result.messages.find((message) => message.role !== 'system')?.role).toBe('user');
          // Fits whenever the last message group alone does.
          const last = estimator.countMessages(messages.slice(-1));
          if (last < contextWindow * 0.3) expect(result.tokensAfter).toBeLessThan(contextWindow * 0.95);
        },
      ),
      { numRuns: 60 },
    );
  });
});
