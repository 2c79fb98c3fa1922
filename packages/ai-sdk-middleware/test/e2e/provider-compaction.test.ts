// biome-ignore-all lint/suspicious/noExplicitAny: provider JSON bodies
/**
 * Issue 25, "coexist": the user turns on the provider's own compaction (Anthropic
 * `compact_20260112`, OpenAI Responses `context_management`) next to the middleware. Through the
 * real request builders (`@ai-sdk/anthropic` 3 and 4, `@ai-sdk/openai` 4 responses; the ai 6 line
 * of `@ai-sdk/openai` has no compaction support) against a loopback that compacts as documented:
 * every block reaches the provider byte-identical and in order, the user's options reach it
 * unchanged, and no Spillway summary covers a span the provider compacted.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { closeServers } from './harness';
import { blocksIn } from './provider-compaction-server';
import { ask, runProviderSession, SESSION_TURNS } from './provider-session';
import { providerTargets } from './provider-targets';

afterEach(closeServers);

/** Below Spillway's compact threshold (13,600 at 16K): the provider acts first; above it: both act. */
const TRIGGERS = [10_000, 12_000, 13_000];

export const compactingTargets = providerTargets.filter(
  (target) =>
    target.kind === 'anthropic' || (target.kind === 'openai-responses' && target.sdk.version === 'v4'),
);

/** The user's own context-management options, as each provider package spells them. */
export function userContextManagement(kind: string, TRIGGER: number): Record<string, unknown> {
  return kind === 'anthropic'
    ? {
        anthropic: {
          contextManagement: {
            edits: [{ type: 'compact_20260112', trigger: { type: 'input_tokens', value: TRIGGER } }],
          },
        },
      }
    : { openai: { store: false, contextManagement: [{ type: 'compaction', compactThreshold: TRIGGER }] } };
}

describe.each(compactingTargets)('$name: provider compaction next to the middleware', (target) => {
  it.each(TRIGGERS)(
    `${SESSION_TURNS} turns on a 16K window, provider trigger %i: blocks verbatim and in order, no span compacted twice`,
    async (TRIGGER) => {
      const session = await runProviderSession(target, {
        providerOptions: userContextManagement(target.kind, TRIGGER),
      });
      expect(session.harness.violations).toEqual([]);
      expect(session.texts.every((text) => text.endsWith('Checked: it went through.'))).toBe(true);
      // The provider compacted several times, and every later request carried every block, as returned.
      expect(session.blocks.length).toBeGreaterThanOrEqual(2);
      for (const request of session.main) {
        expect(blocksIn(target.kind, request.body).map((block) => JSON.stringify(block))).toEqual(
          request.blocksBefore.map((block) => JSON.stringify(block)),
        );
        // The user's options reach the provider unchanged.
        if (target.kind === 'anthropic') {
          expect(request.body.context_management).toEqual({
            edits: [{ type: 'compact_20260112', trigger: { type: 'input_tokens', value: TRIGGER } }],
          });
        } else {
          expect(request.body.context_management).toEqual([
            { type: 'compaction', compact_threshold: TRIGGER },
          ]);
        }
      }
      // No summary request covers a turn the provider had compacted.
      for (const request of session.requests.filter((entry) => entry.summary)) {
        for (let turn = 1; turn <= request.compactedThrough; turn++)
          expect(request.raw).not.toContain(ask(turn));
      }
      // What the provider reads stays inside the window.
      expect(session.cost.largestRead).toBeLessThanOrEqual(16_000);
      console.log(
        `[provider compaction, user trigger ${TRIGGER}] ${target.name}: ${JSON.stringify(session.cost)}`,
      );
    },
  );
});

describe.each(compactingTargets)("$name: strategy 'provider'", (target) => {
  it(`${SESSION_TURNS} turns on a 16K window: Spillway's thresholds as the provider's options, merged, no local summary`, async () => {
    const user =
      target.kind === 'anthropic'
        ? { anthropic: { contextManagement: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] } } }
        : { openai: { store: false } };
    const session = await runProviderSession(target, {
      providerOptions: user,
      middleware: { strategy: 'provider' },
    });
    expect(session.harness.violations).toEqual([]);
    expect(session.cost.summaryCalls).toBe(0);
    for (const request of session.main) {
      if (target.kind === 'anthropic') {
        const [thinking, clear, ...rest] = request.body.context_management.edits;
        expect(thinking).toEqual({ type: 'clear_thinking_20251015', keep: 'all' });
        expect(clear).toMatchObject({
          type: 'clear_tool_uses_20250919',
          trigger: { type: 'input_tokens', value: 13_600 },
          clear_at_least: { type: 'input_tokens', value: 4_000 },
          exclude_tools: ['spillway_recall'],
        });
        expect(clear.keep.type).toBe('tool_uses');
        expect(clear.keep.value).toBeGreaterThanOrEqual(1);
        // A 16K window is under the provider's smallest compaction trigger: no compaction edit.
        expect(rest).toEqual([]);
      } else {
        expect(request.body.context_management).toEqual([{ type: 'compaction', compact_threshold: 13_600 }]);
        expect(request.body.store).toBe(false);
      }
      expect(blocksIn(target.kind, request.body).map((block) => JSON.stringify(block))).toEqual(
        request.blocksBefore.map((block) => JSON.stringify(block)),
      );
    }
    expect(session.cost.largestRead).toBeLessThanOrEqual(16_000);
    console.log(`[provider compaction, strategy provider] ${target.name}: ${JSON.stringify(session.cost)}`);
  });
});

describe.each(compactingTargets)('$name: local strategy (the reference)', (target) => {
  it(`${SESSION_TURNS} turns on a 16K window without provider context management`, async () => {
    const session = await runProviderSession(target, {
      providerOptions: target.kind === 'anthropic' ? {} : { openai: { store: false } },
    });
    expect(session.harness.violations).toEqual([]);
    expect(session.blocks).toEqual([]);
    for (const request of session.main) expect(request.body.context_management).toBeUndefined();
    expect(session.cost.largestRead).toBeLessThanOrEqual(0.85 * 16_000 * 1.1);
    console.log(`[provider compaction, strategy local] ${target.name}: ${JSON.stringify(session.cost)}`);
  });
});
