import { afterEach, describe, expect, it } from 'vitest';
import { compactionProcessor } from '../../src/index';
import { scratchDatabase, sessionAgent, threadMemory } from '../agent';
import { requestViolations } from '../checks';
import { partsOf, type SessionTurn, screenshotBase64, toolSession } from '../session';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

const THREAD = { thread: 'media', resource: 'u' };

describe('images, pinned rules and UI events through a real Mastra agent', () => {
  it('old screenshots and pasted images become placeholders; the run in progress keeps its own screenshot', async () => {
    const database = scratchDatabase();
    cleanups.push(database.remove);
    const window = 16_000;
    const session: SessionTurn[] = toolSession({ turns: 10, seed: 2 }).map((turn, index) =>
      index % 3 === 1 ? { ...turn, screenshot: true } : turn,
    );
    const pasted = screenshotBase64(1024, 768, 5_000, 99);
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
      const input =
        turn === 0
          ? [
              {
                role: 'user' as const,
                content: [
                  { type: 'text' as const, text: spec.user },
                  { type: 'image' as const, image: pasted, mediaType: 'image/png' },
                ],
              },
            ]
          : spec.user;
      await agent.generate(input as never, { memory: THREAD });
      for (const request of requests.slice(before)) {
        problems.push(...requestViolations(request, { session, turn, contextWindow: window }));
        // The run's own screenshot goes out as the image it is.
        if (spec.screenshot && request.runCalls.length > 0) {
          expect(JSON.stringify(request.prompt)).toContain(
            screenshotBase64(1280, 800, 6_000, `https://app.local/${turn}`.length).slice(0, 200),
          );
        }
      }
      await spillway.compactor.idle();
    }
    expect(problems).toEqual([]);
    // An older screenshot went out as its placeholder line (with its reference) while its turn was
    // still in the request, and the pasted image left the request once its turn was compacted.
    const sent = requests.map((request) => JSON.stringify(request.prompt));
    expect(sent.some((text) => /\[image: [^\]]*1280x800[^\]]*\][^"]*\[ref=i\./.test(text))).toBe(true);
    expect(sent[0]).toContain(pasted.slice(0, 200));
    expect(sent.at(-1)).not.toContain(pasted.slice(0, 200));
  });

  it('keeps a message marked providerOptions.spillway.pin verbatim in every compacted request', async () => {
    const database = scratchDatabase();
    cleanups.push(database.remove);
    const window = 12_000;
    const rule =
      'House rule for this repository: report every ticket number in upper case, and quote file paths in backticks.';
    const session = toolSession({ turns: 10, seed: 4, reportChars: 3_000 });
    const spillway = compactionProcessor({
      contextWindow: window,
      summarizer: 'extractive',
      pinnedRules: { detect: false },
    });
    const { agent, requests } = sessionAgent({
      session: [{ user: rule, rounds: [], answer: 'Understood.' }, ...session],
      contextWindow: window,
      memory: threadMemory(database.url),
      inputProcessors: [spillway],
    });
    await agent.generate(
      [{ role: 'user', content: rule, providerOptions: { spillway: { pin: true } } }] as never,
      { memory: THREAD },
    );
    for (const spec of session) {
      await agent.generate(spec.user, { memory: THREAD });
      await spillway.compactor.idle();
    }
    const last = requests.at(-1)!;
    // The message itself left the request (compacted), but the rule is there word for word.
    const userTexts = last.prompt
      .filter((message) => message.role === 'user')
      .flatMap((message) => partsOf(message));
    expect(userTexts.some((part) => part.text === rule)).toBe(false);
    expect(JSON.stringify(last.prompt)).toContain(rule);
  });

  it('streams data-spillway chunks while compacting (for useChat through @mastra/ai-sdk)', async () => {
    const database = scratchDatabase();
    cleanups.push(database.remove);
    const window = 10_000;
    const session = toolSession({ turns: 8, seed: 6 });
    const spillway = compactionProcessor({ contextWindow: window, summarizer: 'extractive' });
    const { agent } = sessionAgent({
      session,
      contextWindow: window,
      memory: threadMemory(database.url),
      inputProcessors: [spillway],
    });
    const parts: { type: string; data?: { status?: string; message?: string } }[] = [];
    for (const spec of session) {
      const output = await agent.stream(spec.user, { memory: THREAD });
      for await (const chunk of output.fullStream) {
        if (String(chunk.type).startsWith('data-spillway')) parts.push(chunk as never);
      }
      expect(await output.text).toBe(spec.answer);
      await spillway.compactor.idle();
    }
    expect(parts.length).toBeGreaterThan(0);
    expect(
      parts.every((part) => part.type === 'data-spillway' && typeof part.data?.message === 'string'),
    ).toBe(true);
    expect(parts.map((part) => part.data?.status)).toEqual(expect.arrayContaining(['truncated']));
  });
});
