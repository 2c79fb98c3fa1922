import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codingSession } from '../../test/coding-session';
import { assertToolPairsIntact, deepFreeze } from '../../test/conversation-fixtures';
import { compactMessages } from '../compact/compact-messages';
import { createCompactor } from '../compact/create-compactor';
import { createEstimator } from '../estimate/create-estimator';
import type { Message, ToolResultPart } from '../message/message';
import { MemoryCompactionStore } from '../store/memory-compaction-store';

const estimator = createEstimator();
const RUNS = Number(
  (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.FIDELITY_RUNS ??
    80,
);

/** Where each call sits (the index of the message holding it) and each result, by call id. */
function index(messages: readonly Message[]) {
  const callAt = new Map<string, number>();
  const results = new Map<string, ToolResultPart>();
  messages.forEach((message, messageIndex) => {
    if (typeof message.content === 'string') return;
    for (const part of message.content) {
      if (part.type === 'tool-call') callAt.set(part.toolCallId, messageIndex);
      if (part.type === 'tool-result') results.set(part.toolCallId, part);
    }
  });
  return { callAt, results };
}

const textOf = (content: ToolResultPart['content']) =>
  typeof content === 'string'
    ? content
    : content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');

const NOT_SUMMARIZED = ['summarize', 'summarize-failed', 'drop-oldest', 'apply-summary'] as const;

describe('structural stages on generated coding-agent sessions (reads, edits, re-reads, repeated greps and test runs)', () => {
  it('split no pair, keep the latest read of every file, never touch the current turn, keep every user sentence', async () => {
    const seen = { structuralOnly: 0, supersede: 0, collapse: 0, cluster: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          seed: fc.integer({ min: 1, max: 1_000_000 }),
          turns: fc.integer({ min: 4, max: 40 }),
          files: fc.integer({ min: 2, max: 8 }),
          currentSteps: fc.integer({ min: 0, max: 3 }),
          chatRate: fc.constantFrom(0, 0.25, 0.6),
          /** The window as a share of the conversation's size. */
          windowShare: fc.double({ min: 0.3, max: 1.4, noNaN: true }),
          reduction: fc.boolean(),
        }),
        async ({ seed, turns, files, currentSteps, chatRate, windowShare, reduction }) => {
          const session = codingSession({ seed, turns, files, currentSteps, chatRate });
          const messages = deepFreeze(session.messages);
          const contextWindow = Math.max(4_000, Math.round(estimator.countMessages(messages) * windowShare));
          const result = await compactMessages(messages, {
            contextWindow,
            estimator,
            collapseExchanges: true,
            ...(reduction ? {} : { toolResultReduction: false as const }),
          });
          const output = result.messages;
          assertToolPairsIntact(output);

          // The current turn: the very same objects, at the end, unless it alone had to shrink.
          const turn = messages.slice(session.turnStart);
          if (!result.actions.includes('shrink-current-turn')) {
            const tail = output.slice(output.length - turn.length);
            tail.forEach((message, position) => {
              expect(message).toBe(turn[position]);
            });
          }

          // Every stale note names a later call that changed or re-read the same path.
          const original = index(messages);
          const sent = index(output);
          const pathOf = new Map<string, string>();
          for (const map of [session.fullReads, session.changes]) {
            for (const [path, ids] of map) for (const id of ids) pathOf.set(id, path);
          }
          for (const [id, part] of sent.results) {
            const text = textOf(part.content);
            const named = /^\[superseded: .* \(call (call_\d+)\)/.exec(text);
            if (named === null) continue;
            const by = named[1]!;
            expect(original.callAt.get(by)!).toBeGreaterThan(original.callAt.get(id)!);
            if (pathOf.has(id) && pathOf.has(by)) expect(pathOf.get(by)).toBe(pathOf.get(id));
          }

          // The latest read of every file that nothing changed afterwards is never superseded.
          for (const [path, reads] of session.fullReads) {
            const latest = reads.at(-1)!;
            const changedAfter = (session.changes.get(path) ?? []).some(
              (id) => original.callAt.get(id)! > original.callAt.get(latest)!,
            );
            const part = sent.results.get(latest);
            if (changedAfter || part === undefined) continue;
            expect(textOf(part.content)).not.toMatch(/^\[superseded/);
            // Intact unless reductions are on, it is a copy of an earlier result, or the request had
            // to be shrunk inside the current turn or cut (the last resorts).
            const lastResort = result.actions.some(
              (action) => action === 'shrink-current-turn' || action === 'drop-oldest',
            );
            if (!reduction && !lastResort && !/^\[(near-)?duplicate/.test(textOf(part.content))) {
              expect(part).toBe(original.results.get(latest));
            }
          }

          // Collapse acts only where old turns fold, often next to a summary: counted anywhere.
          if (result.actions.includes('collapse-exchanges')) seen.collapse++;
          if (NOT_SUMMARIZED.some((action) => result.actions.includes(action))) return;
          seen.structuralOnly++;
          if (result.actions.includes('supersede-tool-results')) seen.supersede++;
          if (result.actions.includes('cluster-tool-results')) seen.cluster++;
          // Without a summary or a drop, every user sentence is still there, verbatim.
          const sentText = output
            .map((message) => (typeof message.content === 'string' ? message.content : ''))
            .join('\n');
          for (const text of session.userTexts) expect(sentText).toContain(text);
          // Each latest read is still in the request, unless old turns were folded (a deeper tier:
          // the call stays as one line with its reference).
          if (!result.actions.includes('fold-tool-steps')) {
            for (const reads of session.fullReads.values())
              expect(sent.results.has(reads.at(-1)!)).toBe(true);
          }
        },
      ),
      { numRuns: RUNS },
    );
    // The properties were exercised: requests shrunk by the structural stages alone, each stage acting.
    expect(seen.structuralOnly).toBeGreaterThan(RUNS / 8);
    expect(seen.supersede).toBeGreaterThan(0);
    // Collapse (opt-in) and cluster act only where a step stops in their zone: a step that must go
    // further goes as far as it needs to last (often folding turns), so whether a random run reaches
    // them depends on the generated sessions. Both are checked on a fixed session below (cluster at
    // 1.1× the session, collapse at 0.5×) and in their own test files.
  });

  it('reports the tokens each stage saved, and each stage can be turned off', async () => {
    const { messages } = codingSession({ seed: 7, turns: 60, chatRate: 0.3 });
    deepFreeze(messages);
    const total = estimator.countMessages(messages);
    // Supersede and cluster act where old results are reduced; collapse (off by default) where old
    // turns fold, at a tighter window (where the one step that gets the request low folds every
    // old turn, the reads supersede replaced are folded too).
    const run = (share: number, options: Parameters<typeof compactMessages>[1] = {}) =>
      compactMessages(messages, {
        contextWindow: Math.round(total * share),
        estimator,
        collapseExchanges: true,
        ...options,
      });
    for (const [share, acting] of [
      [1.1, ['supersede-tool-results', 'cluster-tool-results']],
      [0.5, ['collapse-exchanges', 'fold-tool-steps']],
    ] as const) {
      const all = await run(share);
      expect(all.actions).toEqual(expect.arrayContaining([...acting]));
      expect(all.actions).not.toContain('summarize');
      for (const action of acting) expect(all.savings[action]).toBeGreaterThan(0);
      // Without a summary, the savings add up to what the request lost.
      const sum = Object.values(all.savings).reduce((sum, value) => sum + value, 0);
      expect(Math.abs(sum - (all.tokensBefore - all.tokensAfter))).toBeLessThanOrEqual(20);
      expect(Object.keys(all.savings)).toEqual(all.actions.filter((action) => action in all.savings));

      const none = await run(share, {
        supersedeToolResults: false,
        collapseExchanges: false,
        clusterToolResults: false,
      });
      for (const action of [
        'supersede-tool-results',
        'collapse-exchanges',
        'cluster-tool-results',
      ] as const) {
        expect(none.actions).not.toContain(action);
        expect(none.savings[action]).toBeUndefined();
      }
    }
    const folded = await run(0.5);
    const noCollapse = await run(0.5, { collapseExchanges: false });
    expect(noCollapse.actions).not.toContain('collapse-exchanges');
    expect(folded.savings['collapse-exchanges']).toBeGreaterThan(0);
    expect(JSON.stringify(folded.messages)).toContain('[Earlier exchanges, condensed]');
    expect(JSON.stringify(noCollapse.messages)).not.toContain('[Earlier exchanges, condensed]');
  });
});

describe('what the stages save on the coding-session fixture (the core README table)', () => {
  it.each([40, 60, 120])(
    '%i turns at a window of 0.8 of the session: the stages leave fewer results to stub or turns to fold; no summary either way',
    async (turns) => {
      const { messages } = codingSession({ seed: 7, turns, chatRate: 0.3 });
      deepFreeze(messages);
      const contextWindow = Math.round(estimator.countMessages(messages) * 0.8);
      const all = await compactMessages(messages, { contextWindow, estimator });
      const none = await compactMessages(messages, {
        contextWindow,
        estimator,
        supersedeToolResults: false,
        collapseExchanges: false,
        clusterToolResults: false,
      });
      console.log(
        `${turns} turns, ${all.tokensBefore} tokens: with the stages ${JSON.stringify(all.savings)} → ${all.tokensAfter} sent; without ${JSON.stringify(none.savings)} → ${none.tokensAfter} sent`,
      );
      expect(all.actions).not.toContain('summarize');
      expect(none.actions).not.toContain('summarize');
      expect(all.savings['supersede-tool-results']).toBeGreaterThan(0);
      // Without them, more of the old results are stubbed or their turns folded (their content
      // gone, not just stale).
      const lost = (result: typeof all) =>
        (result.savings['stub-tool-results'] ?? 0) + (result.savings['fold-tool-steps'] ?? 0);
      expect(lost(none)).toBeGreaterThan(lost(all));
    },
  );
});

describe('structural stages are deterministic and keep the prompt-cache prefix', () => {
  it('the same conversation, as the same objects or deserialized afresh, gives the same request; roles still alternate', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          seed: fc.integer({ min: 1, max: 1_000_000 }),
          turns: fc.integer({ min: 4, max: 40 }),
          chatRate: fc.constantFrom(0, 0.3, 0.7),
          windowShare: fc.double({ min: 0.3, max: 1.4, noNaN: true }),
        }),
        async ({ seed, turns, chatRate, windowShare }) => {
          const { messages } = codingSession({ seed, turns, chatRate });
          deepFreeze(messages);
          const contextWindow = Math.max(4_000, Math.round(estimator.countMessages(messages) * windowShare));
          const first = await compactMessages(messages, { contextWindow, estimator });
          const again = await compactMessages(messages, { contextWindow, estimator });
          const fresh = await compactMessages(JSON.parse(JSON.stringify(messages)) as Message[], {
            contextWindow,
            estimator,
          });
          expect(again.messages).toEqual(first.messages);
          expect(fresh.messages).toEqual(first.messages);
          expect(again.actions).toEqual(first.actions);
          expect(fresh.savings).toEqual(first.savings);
          // The input never has two user or two assistant messages in a row, and opens with the
          // user after the system prompt: nor does the request — but for the note a drop leaves,
          // a user message of its own that every adapter folds into the user message after it
          // (`repairPrompt`, `toPromptMessages`).
          const isNote = (message: Message) =>
            message.role === 'user' &&
            typeof message.content === 'string' &&
            message.content.startsWith('[System: ');
          const roles = first.messages
            .filter((message) => message.role !== 'system' && !isNote(message))
            .map((m) => m.role);
          expect(roles[0]).toBe('user');
          roles.forEach((role, position) => {
            if (position > 0 && role !== 'tool') expect(role).not.toBe(roles[position - 1]);
          });
        },
      ),
      { numRuns: Math.max(10, Math.round(RUNS / 2)) },
    );
  });

  it('a growing coding session: the request prefix holds from call to call, with no more summaries than without the stages', async () => {
    const { messages: session } = codingSession({ seed: 11, turns: 120, chatRate: 0.3, currentSteps: 0 });
    const play = async (stages: boolean) => {
      const store = new MemoryCompactionStore();
      const compactor = createCompactor({
        contextWindow: 24_000,
        estimator,
        store,
        ...(stages
          ? {}
          : { supersedeToolResults: false, collapseExchanges: false, clusterToolResults: false }),
      });
      let previous: { messages: Message[]; coveredCount: number | undefined } | undefined;
      let comparable = 0;
      let stable = 0;
      let reused = 0;
      let calls = 0;
      let cachedTokens = 0;
      let sentTokens = 0;
      const acted = new Set<string>();
      for (let end = 2; end <= session.length; end++) {
        const history = session.slice(0, end);
        const last = history.at(-1)!;
        // A model call follows every user message and every tool result.
        if (last.role === 'assistant') {
          await compactor.afterResponse(history, { conversationId: 'coding' });
          await compactor.idle();
          continue;
        }
        if (last.role !== 'user' && last.role !== 'tool') continue;
        calls++;
        const prepared = await compactor.prepare(history, { conversationId: 'coding' });
        assertToolPairsIntact(prepared.messages);
        expect(prepared.tokensAfter).toBeLessThanOrEqual(24_000);
        for (const action of prepared.actions) acted.add(action);
        const covered = prepared.state?.coveredCount;
        if (previous) {
          // The tokens of this request a prompt cache holds from the previous one: their shared prefix.
          let shared = 0;
          while (
            shared < previous.messages.length &&
            JSON.stringify(prepared.messages[shared]) === JSON.stringify(previous.messages[shared])
          )
            shared++;
          const sharedTokens = estimator.countMessages(prepared.messages.slice(0, shared));
          cachedTokens += sharedTokens;
          sentTokens += estimator.countMessages(prepared.messages);
          if (previous.coveredCount === covered && !prepared.actions.includes('drop-oldest')) {
            comparable++;
            const before = previous.messages.slice(0, -1);
            if (JSON.stringify(prepared.messages.slice(0, before.length)) === JSON.stringify(before))
              stable++;
            reused += sharedTokens / estimator.countMessages(previous.messages);
          }
        }
        previous = { messages: prepared.messages, coveredCount: covered };
      }
      const state = await store.get('coding');
      return {
        calls,
        comparable,
        stable,
        reused: reused / comparable,
        summaries: state?.compactionCount ?? 0,
        sentTokens,
        cachedShare: cachedTokens / sentTokens,
        acted,
      };
    };
    const withStages = await play(true);
    const without = await play(false);
    const line = (run: typeof withStages) =>
      `${run.summaries} summaries, ${run.sentTokens} tokens sent in ${run.calls} calls, ${Math.round(run.cachedShare * 100)}% of them a cacheable prefix, prefix-stable between summaries ${run.stable}/${run.comparable}`;
    console.log(
      `coding session, 120 turns at a 24K window: with the stages ${line(withStages)}; without: ${line(without)}`,
    );
    expect(withStages.acted).toContain('supersede-tool-results');
    expect(withStages.summaries).toBeLessThanOrEqual(without.summaries);
    expect(withStages.comparable).toBeGreaterThan(withStages.calls / 3);
    expect(withStages.stable / withStages.comparable).toBeGreaterThanOrEqual(0.6);
    expect(withStages.reused).toBeGreaterThanOrEqual(0.8);
  });
});

describe('the current turn never rewrites the history', () => {
  it('an edit in the turn in progress leaves an earlier read whole; once it is history before the cut, the read becomes a note naming it', async () => {
    const file = Array.from({ length: 120 }, (_, line) => `export const value${line} = ${line * 7};`).join(
      '\n',
    );
    const read = (id: string, path: string): Message[] => [
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: id, toolName: 'read_file', input: { path } }],
      },
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: id, toolName: 'read_file', content: file }],
      },
    ];
    const edit = (id: string, path: string): Message[] => [
      {
        role: 'assistant',
        content: [
          {
            type: 'tool-call',
            toolCallId: id,
            toolName: 'edit_file',
            input: { path, old_string: 'a', new_string: 'b' },
          },
        ],
      },
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: id, toolName: 'edit_file', content: 'ok' }],
      },
    ];
    const history: Message[] = [{ role: 'system', content: 'You are a coding agent.' }];
    history.push({ role: 'user', content: 'look at a.ts' }, ...read('r0', 'src/a.ts'), {
      role: 'assistant',
      content: 'Read it.',
    });
    for (let turn = 1; turn <= 12; turn++) {
      history.push({ role: 'user', content: `look at b${turn}.ts` }, ...read(`r${turn}`, `src/b${turn}.ts`), {
        role: 'assistant',
        content: 'Read it.',
      });
    }
    const turn: Message[] = [{ role: 'user', content: 'now change a.ts' }, ...edit('e1', 'src/a.ts')];
    const contextWindow = Math.round(estimator.countMessages([...history, ...turn]) * 0.9);
    const inProgress = await compactMessages(deepFreeze([...history, ...turn]), {
      contextWindow,
      estimator,
      toolResultReduction: false,
    });
    expect(inProgress.actions).toContain('supersede-tool-results');
    const { results } = index(inProgress.messages);
    expect(textOf(results.get('r0')!.content)).toBe(file);

    // The turn is finished and twelve more turns go by: the edit is history before the cut now.
    const later = [...history, ...turn, { role: 'assistant' as const, content: 'Changed it.' }];
    for (let more = 13; more <= 24; more++) {
      later.push({ role: 'user', content: `look at c${more}.ts` }, ...read(`r${more}`, `src/c${more}.ts`), {
        role: 'assistant',
        content: 'Read it.',
      });
    }
    later.push({ role: 'user', content: 'what now?' });
    const afterwards = await compactMessages(deepFreeze(later), {
      contextWindow: Math.round(estimator.countMessages(later) * 0.6),
      estimator,
      toolResultReduction: false,
    });
    expect(textOf(index(afterwards.messages).results.get('r0')!.content)).toMatch(
      /^\[superseded: read_file of src\/a\.ts is stale — edit_file changed it later \(call e1\)/,
    );
    // With read-back on (the default), the note names the replaced result for spillway_recall.
    expect(textOf(index(afterwards.messages).results.get('r0')!.content)).toMatch(/\[ref=[^\]]+\]/);
  });
});
