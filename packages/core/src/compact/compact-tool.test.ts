import { describe, expect, it } from 'vitest';
import { InvalidConfigError } from '../errors/invalid-config-error';
import type { Message } from '../message/message';
import { DEFAULT_SUMMARY_PROMPT } from '../summarize/default-summary-prompt';
import type { SummarizerInput } from '../summarize/summarizer';
import { withSummaryInstructions } from '../summarize/summary-instructions';
import {
  COMPACT_TOOL_NAME,
  compactToolFailure,
  compactToolInputSchema,
  compactToolInstructions,
  compactToolReport,
  parseCompactInput,
} from './compact-tool';
import { createCompactor } from './create-compactor';

function chat(turns: number): Message[] {
  const messages: Message[] = [];
  for (let turn = 0; turn < turns; turn++) {
    messages.push(
      {
        role: 'user',
        content: `Question ${turn} about ORD-${1000 + turn}. ${'More detail here. '.repeat(30)}`,
      },
      { role: 'assistant', content: `Answer ${turn}. ${'The answer goes on. '.repeat(60)}` },
    );
  }
  return messages;
}

describe('the spillway_compact tool spec', () => {
  it('takes nothing, {}, a string or { instructions }, and refuses the rest with one line', () => {
    expect(parseCompactInput(undefined)).toEqual({ ok: true, instructions: undefined });
    expect(parseCompactInput({})).toEqual({ ok: true, instructions: undefined });
    expect(parseCompactInput({ instructions: '  ' })).toEqual({ ok: true, instructions: undefined });
    expect(parseCompactInput({ instructions: ' keep the paths ' })).toEqual({
      ok: true,
      instructions: 'keep the paths',
    });
    expect(parseCompactInput('keep the paths')).toEqual({ ok: true, instructions: 'keep the paths' });
    for (const bad of [42, [], { instructions: 1 }, { instructions: 'x'.repeat(2_001) }]) {
      const parsed = parseCompactInput(bad);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) {
        expect(parsed.message.startsWith(`${COMPACT_TOOL_NAME}: nothing was compacted:`)).toBe(true);
        expect(parsed.message).not.toContain('\n');
      }
    }
    expect(compactToolInputSchema.properties.instructions.maxLength).toBe(2_000);
  });

  it('reports in one short line', () => {
    const report = compactToolReport({
      messagesSummarized: 1_234,
      tokensBefore: 123_456.7,
      tokensAfter: 9_876,
    });
    expect(report).toBe(
      'Compacted: 1234 older messages summarized; the request went from ≈123,457 to ≈9,876 tokens (113,581 freed). The current request is kept as it is.',
    );
    expect(compactToolReport({ messagesSummarized: 0, tokensBefore: 500, tokensAfter: 500 })).toMatch(
      /^Nothing to compact/,
    );
    expect(compactToolFailure(new Error(`boom\n${'x'.repeat(1_000)}`))).toBe(
      'spillway_compact could not compact the conversation (nothing changed): boom',
    );
  });
});

describe('Compactor.compact with instructions', () => {
  it('adds them to the summarizer’s instructions for that compaction only', async () => {
    const inputs: SummarizerInput[] = [];
    const compactor = createCompactor({
      contextWindow: 8_000,
      summarizer: (input) => {
        inputs.push(input);
        return 'The user asked about the orders.';
      },
    });
    const messages = chat(8);
    const state = await compactor.compact(messages, { instructions: 'Keep every ORD- number.' });
    expect(state?.coveredCount).toBeGreaterThan(0);
    expect(inputs[0]!.system).toBe(withSummaryInstructions(undefined, 'Keep every ORD- number.'));
    expect(inputs[0]!.system.startsWith(DEFAULT_SUMMARY_PROMPT)).toBe(true);
    expect(inputs[0]!.system).toContain('<keep>\nKeep every ORD- number.\n</keep>');
    // The next compaction, without instructions, uses the prompt alone.
    await compactor.compact([...messages, ...chat(4)], {});
    expect(inputs.at(-1)!.system).toBe(DEFAULT_SUMMARY_PROMPT);
  });

  it('protectedRatio 0 summarizes all but the latest turn before the current one; the default keeps the protected window', async () => {
    const messages: Message[] = [...chat(8), { role: 'user', content: 'Now the current request.' }];
    const summarizer = () => 'The user asked about the orders.';
    const kept = await createCompactor({ contextWindow: 8_000, summarizer }).compact(messages);
    const all = await createCompactor({ contextWindow: 8_000, summarizer }).compact(messages, {
      protectedRatio: 0,
    });
    expect(kept!.coveredCount).toBeGreaterThan(0);
    expect(kept!.coveredCount).toBeLessThan(16);
    // The manual compaction ends at a turn start inside the history: the latest turn before the
    // current one stays verbatim.
    expect(all!.coveredCount).toBe(14);
    const compactor = createCompactor({ contextWindow: 8_000, summarizer });
    for (const protectedRatio of [-0.1, 0.85, Number.NaN]) {
      const error = await compactor.compact(messages, { protectedRatio }).catch((caught) => caught);
      expect(error?.option).toBe('protectedRatio');
    }
  });

  it('refuses instructions that are not a string or too long, naming the option', async () => {
    const compactor = createCompactor({ contextWindow: 8_000 });
    for (const instructions of [42, 'x'.repeat(2_001)]) {
      const error = await compactor
        .compact(chat(4), { instructions: instructions as string })
        .catch((caught) => caught);
      expect(InvalidConfigError.isInstance(error)).toBe(true);
      expect(error.option).toBe('instructions');
    }
  });

  it("joins the tool's own instructions and the model's, a line each, or gives none", () => {
    expect(compactToolInstructions(undefined, undefined)).toBeUndefined();
    expect(compactToolInstructions('  ', undefined)).toBeUndefined();
    expect(compactToolInstructions(' keep ticket ids ', undefined)).toBe('keep ticket ids');
    expect(compactToolInstructions(undefined, 'keep the failing tests')).toBe('keep the failing tests');
    expect(compactToolInstructions('keep ticket ids', 'keep the failing tests')).toBe(
      'keep ticket ids\nkeep the failing tests',
    );
  });
});
