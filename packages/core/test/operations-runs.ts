import { createCompactor } from '../src/compact/create-compactor';
import { createEstimator } from '../src/estimate/create-estimator';
import type { Message } from '../src/message/message';
import type { Summarizer } from '../src/summarize/summarizer';
import { type OperationsFact, operationsSession } from './operations-session';

/*
 * `operationsSession` played through Spillway or through the naive baseline, scored the same way:
 * at every tenth turn, each fact said before that turn is kept when its value is found verbatim in
 * the request the model receives. Shared by `keeps-what-clearing-keeps.test.ts` and
 * `bench/second-generator.ts`.
 */

/** A kind of fact the session plants (see `OperationsFact`). */
export type FactKind = OperationsFact['kind'];

export const FACT_KINDS: readonly FactKind[] = ['user-id', 'path', 'decision', 'rule', 'tool-id'];

/** What one session through one strategy kept and sent. */
export interface OperationsRun {
  /** Per kind: facts found in the checked requests, and facts checked. */
  kept: Record<FactKind, { found: number; total: number }>;
  /** Requests whose messages do not start with the previous request's (a prompt cache misses). */
  prefixBreaks: number;
  /** Tokens of every request, summed. */
  tokensSent: number;
  /**
   * Tokens of every request after the messages it shares from the start with the request before it
   * (the first whole): what a prompt cache could not serve.
   */
  uncachedTokens: number;
  /** Turns whose last request was over the window. */
  turnsOverWindow: number;
  summarizerCalls: number;
  turns: number;
  contextWindow: number;
}

const estimator = createEstimator();
const count = (messages: readonly Message[]) => estimator.countMessages(messages);

/** A summarizer that keeps almost nothing: a stock sentence and the transcript's first 300 characters. */
export const lossySummarizer: Summarizer = (input) =>
  `Work on the reports went on. ${input.transcript.slice(0, 300).replace(/\s+/g, ' ')}`;

/**
 * The naive baseline: every tool result older than the latest user message replaced by a stub, all
 * text kept, the oldest whole turns dropped while the request is over the window.
 */
export function naiveRequest(history: readonly Message[], window: number): Message[] {
  let lastUser = history.length - 1;
  while (lastUser > 0 && history[lastUser]!.role !== 'user') lastUser--;
  let request = history.map((message, index) =>
    index < lastUser && message.role === 'tool' && Array.isArray(message.content)
      ? ({
          ...message,
          content: message.content.map((part) =>
            part.type === 'tool-result' ? { ...part, content: '[tool result cleared]' } : part,
          ),
        } as Message)
      : message,
  );
  while (count(request) > window) {
    let end = 2;
    while (end < request.length && request[end]!.role !== 'user') end++;
    if (end >= request.length) break;
    request = [request[0]!, ...request.slice(end)];
  }
  return request;
}

/**
 * One session of `turns` turns (seed `seed`) at a window of `share` of its tokens, through
 * `createCompactor` (background summaries awaited after each turn, so a run is deterministic) or
 * through {@link naiveRequest}.
 */
export async function runOperationsSession({
  strategy,
  seed,
  share,
  summarizer = lossySummarizer,
  turns = 160,
}: {
  strategy: 'spillway' | 'naive';
  seed: number;
  /** The window as a share of the whole session's tokens. */
  share: number;
  /** Spillway's summarizer (the baseline makes none). @default lossySummarizer */
  summarizer?: Summarizer;
  turns?: number;
}): Promise<OperationsRun> {
  const session = operationsSession({ seed, turns });
  const all = [
    session.system,
    ...session.turns.flatMap((turn) => [turn.user, ...turn.steps.flat(), turn.answer]),
  ];
  const window = Math.floor(count(all) * share);
  let summarizerCalls = 0;
  const counted: Summarizer = (input) => {
    summarizerCalls++;
    return summarizer(input);
  };
  const compactor =
    strategy === 'spillway' ? createCompactor({ contextWindow: window, summarizer: counted }) : undefined;
  const conversationId = `ops-${seed}`;
  const history: Message[] = [session.system];
  const kept = Object.fromEntries(FACT_KINDS.map((kind) => [kind, { found: 0, total: 0 }])) as Record<
    FactKind,
    { found: number; total: number }
  >;
  let prefixBreaks = 0;
  let tokensSent = 0;
  let uncachedTokens = 0;
  let turnsOverWindow = 0;
  let previous: string[] | undefined;
  const send = async () => {
    const request =
      compactor === undefined
        ? naiveRequest(history, window)
        : (await compactor.prepare(history, { conversationId })).messages;
    tokensSent += count(request);
    const keys = request.map((message) => JSON.stringify(message));
    let shared = 0;
    while (previous !== undefined && shared < previous.length && keys[shared] === previous[shared]) shared++;
    if (previous !== undefined && shared < previous.length) prefixBreaks++;
    uncachedTokens += count(request.slice(shared));
    previous = keys;
    return request;
  };
  for (const [index, turn] of session.turns.entries()) {
    history.push(turn.user);
    let request = await send();
    for (const step of turn.steps) {
      history.push(...step);
      request = await send();
    }
    if (count(request) > window) turnsOverWindow++;
    if (index % 10 === 9) {
      const text = JSON.stringify(request);
      for (const fact of session.facts) {
        if (fact.turn >= index) continue;
        kept[fact.kind].total++;
        if (text.includes(JSON.stringify(fact.value).slice(1, -1))) kept[fact.kind].found++;
      }
    }
    history.push(turn.answer);
    if (compactor !== undefined) {
      await compactor.afterResponse(history, { conversationId });
      await compactor.idle();
    }
  }
  return {
    kept,
    prefixBreaks,
    tokensSent,
    uncachedTokens,
    turnsOverWindow,
    summarizerCalls,
    turns,
    contextWindow: window,
  };
}

/** The share of a kind's facts kept (1 when none was checked). */
export function keptShare(run: OperationsRun, kind: FactKind): number {
  const { found, total } = run.kept[kind];
  return total === 0 ? 1 : found / total;
}
