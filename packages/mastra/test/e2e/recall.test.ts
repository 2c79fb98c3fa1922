import { afterEach, describe, expect, it } from 'vitest';
import { compactionProcessor, recallTool } from '../../src/index';
import { scratchDatabase, sessionAgent, threadMemory } from '../agent';
import { type SessionTurn, sourceFile, toolSession } from '../session';

const WINDOW = 12_000;
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

describe('spillway_recall (createTool) in a real Mastra agent', () => {
  it('reads a tool result that compaction cut back byte for byte, page by page, after it left the request', async () => {
    const database = scratchDatabase();
    cleanups.push(database.remove);
    const reads = toolSession({ turns: 10, seed: 11 });
    const target = reads[1]!.rounds[0]![0]!;
    const original = sourceFile(target.path, target.chars);
    const session: SessionTurn[] = [
      ...reads,
      { user: `What did ${target.path} hold, exactly?`, rounds: [], answer: original, recall: target.path },
    ];
    const spillway = compactionProcessor({ contextWindow: WINDOW, summarizer: 'extractive' });
    const { agent, requests } = sessionAgent({
      session,
      contextWindow: WINDOW,
      memory: threadMemory(database.url),
      inputProcessors: [spillway],
      extraTools: { spillway_recall: recallTool({ maxChars: 1_500 }) },
    });
    for (const spec of session.slice(0, -1)) {
      await agent.generate(spec.user, { memory: { thread: 'recall', resource: 'u' } });
      await spillway.compactor.idle();
    }
    // By now the early read is no longer in the request whole.
    const lastRequest = JSON.stringify(requests.at(-1)!.prompt);
    expect(lastRequest).not.toContain(JSON.stringify(original).slice(1, -1));
    expect(lastRequest).toContain('spillway_recall');
    const before = requests.length;
    const result = await agent.generate(session.at(-1)!.user, {
      memory: { thread: 'recall', resource: 'u' },
      // Room for a search that stops at its 25 ms limit on a busy machine and goes on, call by call
      // (at least ~800 characters each), before the pages: with a limit of 0 ms it took 30 requests.
      maxSteps: 100,
    });
    // On a mismatch, show what the model answered (a search answer without a reference, a page error).
    expect(result.text.length, result.text.slice(0, 600)).toBe(original.length);
    expect(result.text).toBe(original);
    // It took several pages (1,500 characters each) and a search: every one a request of this run.
    expect(requests.length - before).toBeGreaterThan(original.length / 1_500);
  });

  it('answers with an error the model can act on for a made-up reference, and outside any compacted run', async () => {
    const tool = recallTool();
    const execute = tool.execute as unknown as (input: unknown, context: unknown) => Promise<string>;
    expect(await execute({ ref: 't.madeup' }, { requestContext: new Map() })).toMatch(/^Error/);
    const spillway = compactionProcessor({ contextWindow: WINDOW, summarizer: 'extractive' });
    const session = toolSession({ turns: 1 });
    const { agent } = sessionAgent({ session, contextWindow: WINDOW, inputProcessors: [spillway] });
    const { RequestContext } = await import('@mastra/core/request-context');
    const requestContext = new RequestContext();
    await agent.generate(session[0]!.user, { requestContext });
    const answer = await execute({ ref: 't.aaaaaaaa' }, { requestContext });
    expect(answer).toMatch(/t\.aaaaaaaa/);
    expect(answer).not.toBe('');
  });
});
