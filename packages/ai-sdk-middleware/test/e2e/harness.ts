// biome-ignore-all lint/suspicious/noExplicitAny: one harness drives two SDK generations and four providers
import type { CompactionEvent } from '@spillway/core';
import { expect } from 'vitest';
import { type CompactionMiddlewareOptions, type ContextUsage, compactionMiddleware } from '../../src/index';
import { type RecordedRequest, type Reply, startLoopbackServer } from './loopback-server';
import type { ProviderTarget, ViewMessage } from './provider-targets';

/** Servers the tests started; `closeServers` (in an `afterEach`) stops them. */
const open: (() => Promise<void>)[] = [];

export async function closeServers(): Promise<void> {
  await Promise.all(open.splice(0).map((close) => close()));
}

/**
 * A provider package pointed at a loopback server that answers with `reply`, wrapped with the
 * middleware. Every request body is checked against the provider's rules as it arrives (a broken
 * rule is answered with a 400, as the real API would, and recorded in `violations`).
 */
export async function startHarness(
  target: ProviderTarget,
  reply: (request: RecordedRequest, index: number) => Reply,
  options: CompactionMiddlewareOptions = {},
  { modelId, validate = target.validate }: { modelId?: string; validate?: (body: unknown) => void } = {},
) {
  const events: CompactionEvent[] = [];
  const usages: ContextUsage[] = [];
  const violations: string[] = [];
  const server = await startLoopbackServer(
    (request, index) => {
      try {
        validate(request.body);
      } catch (error) {
        violations.push(`request ${index}: ${(error as Error).message}`);
        return {
          status: 400,
          body: { error: { message: (error as Error).message, type: 'invalid_request_error' } },
        };
      }
      return reply(request, index);
    },
    { basePath: target.basePath },
  );
  open.push(server.close);
  const middleware = compactionMiddleware({
    ...options,
    onEvent: (event) => {
      events.push(event);
      options.onEvent?.(event);
    },
    onContextUsage: (usage) => {
      usages.push(usage);
      options.onContextUsage?.(usage);
    },
  });
  const model = target.sdk.wrapLanguageModel({ model: target.model(server.baseURL, modelId), middleware });
  return {
    server,
    requests: server.requests,
    middleware,
    model,
    events,
    usages,
    violations,
    /** The views of every request body received. */
    views: () => server.requests.map((request) => target.read(request.body)),
  };
}

/**
 * The text of the latest message in which the user speaks (not a tool result): its last text part.
 * Text the engine adds (the note an emergency drop leaves) can go as earlier parts of the same
 * message, never into the user's own part.
 */
export function latestUserText(view: readonly ViewMessage[]): string | undefined {
  const index = latestUserIndex(view);
  if (index === -1) return undefined;
  const message = view[index]!;
  return message.parts === undefined ? message.text : message.parts[message.parts.length - 1];
}

function latestUserIndex(view: readonly ViewMessage[]): number {
  for (let index = view.length - 1; index >= 0; index--) {
    if (view[index]!.role === 'user' && view[index]!.text.length > 0) return index;
  }
  return -1;
}

/** The marker a head-and-tail shortened tool result carries. */
export const TRUNCATION_MARKER = /\.\.\. \[truncated: \d+ chars removed\] \.\.\./;

/**
 * Asserts the current turn reached the provider whole: the user's message verbatim as the latest
 * user text, and each tool call with its result (the result verbatim or shortened with the
 * truncation marker, its head and tail from the original, at most a line naming identifiers of the
 * cut part, never marked as an error).
 */
export function expectTurnIntact(
  view: readonly ViewMessage[],
  { userText, calls }: { userText: string; calls: readonly { id: string; name: string; result: string }[] },
): void {
  expect(latestUserText(view)).toBe(userText);
  const userIndex = latestUserIndex(view);
  const after = view.slice(userIndex + 1);
  for (const call of calls) {
    const asked = after.flatMap((message) => message.toolCalls).find((candidate) => candidate.id === call.id);
    expect(asked, `tool call ${call.id} is in the request`).toBeDefined();
    expect(asked!.name).toBe(call.name);
    const answered = after
      .flatMap((message) => message.toolResults)
      .filter((result) => result.id === call.id);
    expect(answered, `tool result ${call.id} is in the request once`).toHaveLength(1);
    const result = answered[0]!;
    expect(result.isError).toBe(false);
    if (result.text !== call.result) {
      expect(result.text, `tool result ${call.id} is the original or shortened with the marker`).toMatch(
        TRUNCATION_MARKER,
      );
      const [head, marked] = result.text.split(TRUNCATION_MARKER) as [string, string];
      // The marker names the original (`[ref=… offset=…]`, issue 16): the offset is where the cut begins.
      const annotation = /^\s*\[ref=\S+ offset=(\d+)\]/.exec(marked);
      const annotated = annotation === null ? marked : marked.slice(annotation[0].length);
      // A preview may end with the identifiers its cut part mentioned: each is in the original.
      const mentions = /\n\(the cut part mentioned ([^\n]*)\)$/.exec(annotated);
      for (const identifier of mentions?.[1]?.split(', ') ?? []) expect(call.result).toContain(identifier);
      const tail = mentions === null ? annotated : annotated.slice(0, mentions.index);
      if (annotation !== null)
        expect(call.result.slice(0, Number(annotation[1])).trimEnd()).toBe(head.trimEnd());
      expect(call.result.startsWith(head.trimEnd())).toBe(true);
      expect(call.result.endsWith(tail.trimStart())).toBe(true);
      expect(result.text.length).toBeLessThan(call.result.length);
    }
  }
}

/** Events of one type. */
export function eventsOf<Type extends CompactionEvent['type']>(
  events: readonly CompactionEvent[],
  type: Type,
): Extract<CompactionEvent, { type: Type }>[] {
  return events.filter((event): event is Extract<CompactionEvent, { type: Type }> => event.type === type);
}

/**
 * The messages a `generateText` call added, every step's: ai 7 names them `responseMessages` (its
 * `response.messages` holds the final step's only), ai 6 `response.messages`.
 */
export function responseMessages(result: any): unknown[] {
  return result.responseMessages ?? result.response.messages;
}
