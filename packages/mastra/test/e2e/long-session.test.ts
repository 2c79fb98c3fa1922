import { afterEach, describe, expect, it } from 'vitest';
import { compactionProcessor } from '../../src/index';
import { scratchDatabase, sessionAgent, threadMemory } from '../agent';
import { requestViolations } from '../checks';
import { toolSession } from '../session';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

describe('a long tool session through a real Mastra agent with memory', () => {
  it.each([16_000, 8_000])(
    'at a %i-token window: every request keeps every fidelity property',
    async (window) => {
      const database = scratchDatabase();
      cleanups.push(database.remove);
      const session = toolSession({ turns: 24 });
      const spillway = compactionProcessor({ contextWindow: window, summarizer: 'extractive' });
      const { agent, requests } = sessionAgent({
        session,
        contextWindow: window,
        memory: threadMemory(database.url),
        inputProcessors: [spillway],
      });
      const problems: string[] = [];
      for (const [turn, spec] of session.entries()) {
        const before = requests.length;
        const result = await agent.generate(spec.user, { memory: { thread: 'long', resource: 'user-1' } });
        expect(result.text).toBe(spec.answer);
        for (const request of requests.slice(before)) {
          for (const problem of requestViolations(request, { session, turn, contextWindow: window })) {
            problems.push(`turn ${turn}: ${problem}`);
          }
        }
        await spillway.compactor.idle();
      }
      expect(problems).toEqual([]);
      expect(requests.every((request) => !request.rejected)).toBe(true);
    },
  );
});
