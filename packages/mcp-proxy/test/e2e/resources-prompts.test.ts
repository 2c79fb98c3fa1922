import { estimateTokens } from '@spillway/core';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanUp, connectThroughProxy, fixtureServer } from './helpers';

afterEach(cleanUp);

type Contents = { uri: string; mimeType?: string; text?: string; blob?: string };

describe('resources/read and prompts/get through spillway-mcp', () => {
  it('holds a large resource to the resource budget, blobs as placeholders, and the rest one recall away', async () => {
    const { client } = await connectThroughProxy({
      proxyArgs: ['--resource-max-tokens', '800'],
      upstream: [process.execPath, fixtureServer],
    });
    const read = await client.readResource({ uri: 'fixture://text/200000' });
    const [text] = read.contents as Contents[];
    expect(text?.uri).toBe('fixture://text/200000');
    expect(estimateTokens(text?.text ?? '')).toBeLessThanOrEqual(800);
    expect(text?.text).toMatch(/^line 0: the quick brown fox/);
    expect(text?.text).toMatch(/cut \d+ of 200000 characters .* from this resource/);
    const [, ref, offset] = /\{"ref":"([A-Za-z0-9_-]{22})","offset":(\d+)\}/.exec(
      text?.text ?? '',
    ) as unknown as [string, string, string];
    const page = await client.callTool({
      name: 'spillway_recall',
      arguments: { ref, offset: Number(offset), length: 50 },
    });
    expect((page.content as Array<{ text: string }>)[1]?.text).toHaveLength(50);
    // Tool results keep the proxy-wide budget (9000): a per-kind option.
    const tool = await client.callTool({ name: 'big', arguments: { chars: 20_000 } });
    expect((tool.content as Array<{ text: string }>)[0]?.text).toHaveLength(20_000);

    const blob = await client.readResource({ uri: 'fixture://blob/2000000' });
    const [placeholder] = blob.contents as Contents[];
    expect(placeholder).toEqual({
      uri: 'fixture://blob/2000000',
      mimeType: 'text/plain',
      text: expect.stringMatching(
        /^\[resource: fixture:\/\/blob\/2000000, image\/png, 1\.9 MB\] \(not shown: over the 1\.0 MB media budget of one resource\)$/,
      ),
    });
    const small = await client.readResource({ uri: 'fixture://blob/1000' });
    expect((small.contents as Contents[])[0]?.blob?.length).toBeGreaterThan(1000);
  });

  it('holds a large prompt to the prompt budget: text cut, image as a placeholder, roles kept', async () => {
    const { client } = await connectThroughProxy({
      proxyArgs: ['--prompt-max-tokens', '1000'],
      upstream: [process.execPath, fixtureServer],
    });
    const prompt = await client.getPrompt({
      name: 'big-prompt',
      arguments: { chars: '300000', imageBytes: '3000000' },
    });
    expect(prompt.description).toBe('a prompt with a large payload');
    expect(prompt.messages.map((message) => [message.role, message.content.type])).toEqual([
      ['user', 'text'],
      ['user', 'text'],
      ['assistant', 'text'],
    ]);
    const [first, second, third] = prompt.messages.map(
      (message) => (message.content as { text: string }).text,
    );
    expect(first).toMatch(/cut \d+ of 300000 characters .* from this prompt/);
    expect(second).toMatch(
      /^\[image: image\/png, 640x480, 2\.9 MB\] \(not shown: over the 1\.0 MB media budget of one prompt\)$/,
    );
    expect(third).toBe('I have read it.');
    expect(
      prompt.messages.reduce(
        (sum, message) => sum + estimateTokens((message.content as { text: string }).text),
        0,
      ),
    ).toBeLessThanOrEqual(1000);
    const small = await client.getPrompt({
      name: 'big-prompt',
      arguments: { chars: '100', imageBytes: '100' },
    });
    expect(small.messages[1]?.content.type).toBe('image');
  });
});
