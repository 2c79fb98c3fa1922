// biome-ignore-all lint/suspicious/noExplicitAny: provider-level prompts of two specification versions
/**
 * The rule checks the e2e tests run on every request can fail: prompts that break a provider's
 * rules, sent straight through each real provider package (no middleware, no SDK checks), are
 * caught in the body the request builder wrote.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { screenshotPng, toBase64 } from '../conversation';
import { type RecordedRequest, startLoopbackServer } from './loopback-server';
import { ProviderRuleError, type ProviderTarget, providerTargets } from './provider-targets';

const open: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((close) => close()));
});

/** Sends a provider-level prompt through the target's own model and returns the body it wrote. */
async function bodyOf(target: ProviderTarget, prompt: unknown[]): Promise<RecordedRequest['body']> {
  const server = await startLoopbackServer(() => target.answer({ text: 'ok', inputTokens: 1 }), {
    basePath: target.basePath,
  });
  open.push(server.close);
  await target.model(server.baseURL).doGenerate({ prompt, maxOutputTokens: 100 });
  return server.requests[0]!.body;
}

const user = (text: string) => ({ role: 'user', content: [{ type: 'text', text }] });
const call = (id: string, name = 'screenshot') => ({
  role: 'assistant',
  content: [{ type: 'tool-call', toolCallId: id, toolName: name, input: {} }],
});
const result = (id: string, output: unknown, name = 'screenshot') => ({
  role: 'tool',
  content: [{ type: 'tool-result', toolCallId: id, toolName: name, output }],
});

function expectBroken(target: ProviderTarget, body: unknown, rule: RegExp) {
  let error: unknown;
  try {
    target.validate(body);
  } catch (thrown) {
    error = thrown;
  }
  expect(error).toBeInstanceOf(ProviderRuleError);
  expect((error as Error).message).toMatch(rule);
}

describe.each(providerTargets)('$name: its rule checks fail on what its API rejects', (target) => {
  const image =
    target.sdk.version === 'v3'
      ? { type: 'image-data', data: toBase64(screenshotPng(64, 64, 2_000)), mediaType: 'image/png' }
      : {
          type: 'file',
          mediaType: 'image/png',
          data: { type: 'data', data: toBase64(screenshotPng(64, 64, 2_000)) },
        };

  it('accepts a valid tool round', async () => {
    const body = await bodyOf(target, [
      user('Take a screenshot.'),
      call('c1'),
      result('c1', { type: 'text', value: 'taken' }),
    ]);
    expect(() => target.validate(body)).not.toThrow();
  });

  it('rejects a tool result whose call is not in the request', async () => {
    const body = await bodyOf(target, [
      user('Go on.'),
      { role: 'assistant', content: [{ type: 'text', text: 'Sure.' }] },
      result('c9', { type: 'text', value: 'orphan' }),
    ]);
    expectBroken(
      target,
      body,
      /must follow an assistant message with tool_calls|no function_call before it|answers no tool_use|without a function call turn/,
    );
  });

  it('rejects a tool call left without its result', async () => {
    const body = await bodyOf(target, [user('Take a screenshot.'), call('c1'), user('Never mind.')]);
    expectBroken(target, body, /no tool message|no function_call_output|no tool_result|function response/);
  });

  if (target.kind === 'openai-chat') {
    it('rejects a screenshot serialized into a tool message', async () => {
      const body = await bodyOf(target, [
        user('Take a screenshot.'),
        call('c1'),
        result('c1', { type: 'content', value: [{ type: 'text', text: 'Screenshot' }, image] }),
      ]);
      expectBroken(target, body, /an image serialized into a tool message/);
    });
  }

  if (target.kind === 'anthropic') {
    it('rejects a conversation that opens with the assistant', async () => {
      const body = await bodyOf(target, [
        { role: 'assistant', content: [{ type: 'text', text: 'Hi.' }] },
        user('Go.'),
      ]);
      expectBroken(target, body, /first message must be the user/);
    });
  }

  if (target.kind === 'google') {
    it('rejects two function responses for one call (text and placeholder as two text parts)', async () => {
      // gemini-2.5-flash takes the pre-Gemini 3 path: one functionResponse per text part.
      const body = await bodyOf(target, [
        user('Take a screenshot.'),
        call('c1'),
        result('c1', {
          type: 'content',
          value: [
            { type: 'text', text: 'Screenshot 3' },
            { type: 'text', text: '[image: image/png, 1280x800, 39 KB]' },
          ],
        }),
      ]);
      expectBroken(target, body, /1 function call parts but 2 function response parts/);
    });

    it('rejects two user turns in a row', async () => {
      const body = await bodyOf(target, [user('One.'), user('Two.')]);
      expectBroken(target, body, /roles must alternate/);
    });
  }
});
