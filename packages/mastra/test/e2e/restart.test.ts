import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { CompactionState } from '@spillway/core';
import { PostgresCompactionStore } from '@spillway/postgres';
import { afterEach, describe, expect, it } from 'vitest';
import { type ContextUsage, compactionProcessor } from '../../src/index';
import { scratchDatabase, sessionAgent, threadMemory } from '../agent';
import { requestViolations } from '../checks';
import { toolSession } from '../session';

const WINDOW = 16_000;
const THREAD = { thread: 'restart', resource: 'user-7' };
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** One "process": its own PGlite on the data folder, store, processor, memory and agent. */
async function start(
  dataDir: string,
  databaseUrl: string,
  session: ReturnType<typeof toolSession>,
  lastMessages: number | 'default',
) {
  const client = new PGlite(dataDir);
  const store = new PostgresCompactionStore({ client });
  await store.ensureSchema();
  const usages: (ContextUsage & { summariesSoFar: number })[] = [];
  let summaries = 0;
  const spillway = compactionProcessor({
    contextWindow: WINDOW,
    store,
    summarizer: async (input) => {
      summaries++;
      return `Summary ${summaries}: files reviewed per ticket; ${
        input.prompt
          .match(/TCK-\d+/g)
          ?.slice(-8)
          .join(', ') ?? ''
      }`;
    },
    onContextUsage: (usage) => usages.push({ ...usage, summariesSoFar: summaries }),
  });
  const run = sessionAgent({
    session,
    contextWindow: WINDOW,
    memory: threadMemory(databaseUrl, { lastMessages }),
    inputProcessors: [spillway],
  });
  return { ...run, spillway, store, client, usages, summaries: () => summaries };
}

describe('a restart with the same storage (Mastra memory on libsql, Spillway state in Postgres)', () => {
  it.each([
    ['memory that hands over the whole thread', 100_000],
    ["Mastra's default memory (the last 10 messages; the processor loads the rest)", 'default'],
  ] as const)(
    '%s: the next process applies the stored summary at once, no summarizer call',
    async (_, lastMessages) => {
      const database = scratchDatabase();
      const dataDir = mkdtempSync(join(tmpdir(), 'spillway-mastra-pg-'));
      cleanups.push(database.remove, () => rmSync(dataDir, { recursive: true, force: true }));
      const session = toolSession({ turns: 10, seed: 3, reportChars: 6_000 });

      const first = await start(dataDir, database.url, session, lastMessages);
      for (const spec of session.slice(0, 8)) {
        await first.agent.generate(spec.user, { memory: THREAD });
        await first.spillway.compactor.idle();
      }
      expect(first.summaries()).toBeGreaterThan(0);
      const stored = (await first.store.get('user-7:restart')) as CompactionState | undefined;
      expect(stored?.coveredCount).toBeGreaterThan(0);
      await first.client.close();

      const second = await start(dataDir, database.url, session, lastMessages);
      const before = second.requests.length;
      const result = await second.agent.generate(session[8]!.user, { memory: THREAD });
      expect(result.text).toBe(session[8]!.answer);
      // The first request of the new process used the stored state as it was: nothing summarized again.
      const firstUsage = second.usages[0]!;
      expect(firstUsage.conversationId).toBe('user-7:restart');
      expect(firstUsage.actions).toContain('apply-summary');
      expect(firstUsage.actions).not.toContain('summarize');
      expect(firstUsage.summariesSoFar).toBe(0);
      const summary = JSON.stringify(second.requests[before]!.prompt);
      expect(summary).toContain(stored!.summaries.at(-1)!.slice(0, 40).replace(/"/g, '\\"'));
      for (const request of second.requests.slice(before)) {
        expect(requestViolations(request, { session, turn: 8, contextWindow: WINDOW })).toEqual([]);
      }
      await second.spillway.compactor.idle();
      await second.client.close();
    },
    // Two processes' worth of agent runs, PGlite started twice: slow on a busy machine.
    240_000,
  );
});
