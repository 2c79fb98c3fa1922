import type { CompactionEvent } from '@spillway/core';
import { afterEach, describe, expect, it } from 'vitest';
import { compactionProcessor } from '../../src/index';
import { scratchDatabase, sessionAgent, threadMemory } from '../agent';
import { requestViolations } from '../checks';
import { toolSession } from '../session';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

describe('a summarizer that never answers', () => {
  it('every turn is answered and every request fits with the run whole: the engine gives up on the summary in time', async () => {
    const database = scratchDatabase();
    cleanups.push(database.remove);
    const window = 12_000;
    const session = toolSession({ turns: 12, seed: 5, reportChars: 3_000 });
    const events: CompactionEvent[] = [];
    let calls = 0;
    const spillway = compactionProcessor({
      contextWindow: window,
      // Never settles, and ignores its abort signal.
      summarizer: () => {
        calls++;
        return new Promise<string>(() => {});
      },
      summaryTimeouts: { foreground: 150, background: 300 },
      onEvent: (event) => events.push(event),
    });
    const { agent, requests } = sessionAgent({
      session,
      contextWindow: window,
      memory: threadMemory(database.url),
      inputProcessors: [spillway],
    });
    const problems: string[] = [];
    for (const [turn, spec] of session.entries()) {
      const before = requests.length;
      const result = await agent.generate(spec.user, { memory: { thread: 'hang', resource: 'u' } });
      expect(result.text).toBe(spec.answer);
      for (const request of requests.slice(before)) {
        problems.push(...requestViolations(request, { session, turn, contextWindow: window }));
      }
      await spillway.compactor.idle();
    }
    expect(problems).toEqual([]);
    expect(calls).toBeGreaterThan(0);
    expect(events.some((event) => event.type === 'compaction-failed')).toBe(true);
  });
});

describe('a provider whose window is smaller than configured', () => {
  const session = toolSession({ turns: 8, seed: 9 });
  const run = async (recover: boolean) => {
    const database = scratchDatabase();
    cleanups.push(database.remove);
    const spillway = compactionProcessor({ contextWindow: 48_000, summarizer: 'extractive' });
    const scripted = sessionAgent({
      session,
      contextWindow: 12_000,
      memory: threadMemory(database.url),
      inputProcessors: [spillway],
      ...(recover ? { errorProcessors: [spillway] } : {}),
    });
    const outcomes: string[] = [];
    for (const spec of session) {
      try {
        const result = await scripted.agent.generate(spec.user, {
          memory: { thread: 'small', resource: 'u' },
        });
        outcomes.push(result.text === spec.answer ? 'answered' : `other: ${result.text}`);
      } catch (error) {
        outcomes.push(`error: ${(error as Error).message}`);
      }
      await spillway.compactor.idle();
    }
    return { outcomes, requests: scripted.requests };
  };

  it('without errorProcessors the rejection reaches the caller', async () => {
    const { outcomes } = await run(false);
    expect(outcomes.some((outcome) => outcome.startsWith('error: prompt is too long'))).toBe(true);
  });

  it('in errorProcessors too it compacts harder, retries, learns the window from the error, and every turn is answered', async () => {
    const { outcomes, requests } = await run(true);
    expect(outcomes).toEqual(session.map(() => 'answered'));
    const rejected = requests.filter((request) => request.rejected);
    expect(rejected.length).toBeGreaterThan(0);
    // After the first rejection the window is known: later requests fit it from the start.
    const firstRejected = requests.indexOf(rejected[0]!);
    expect(requests.slice(firstRejected + 2).filter((request) => request.rejected)).toEqual([]);
  });
});
