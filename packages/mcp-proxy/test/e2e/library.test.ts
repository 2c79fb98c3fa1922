import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createProxy, type McpProxy } from '../../src/index';
import { fixtureServer, isAlive, waitFor } from './helpers';

let proxy: McpProxy | undefined;
afterEach(async () => {
  await proxy?.close();
});

describe('createProxy (the library)', () => {
  it('serves a client on any SDK transport and stops its upstream child on close', async () => {
    proxy = createProxy({
      upstream: { command: process.execPath, args: [fixtureServer] },
      maxResultTokens: 200,
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const session = await proxy.connect(serverSide);
    const client = new Client({ name: 'library-test', version: '1.0.0' });
    await client.connect(clientSide);
    expect(client.getServerVersion()).toEqual({ name: 'fixture', version: '1.0.0' });
    const result = await client.callTool({ name: 'big', arguments: { chars: 10_000 } });
    expect((result.content as Array<{ text: string }>)[0]?.text).toContain('of 10000 characters');
    const pid = session.upstreamPid as number;
    expect(isAlive(pid)).toBe(true);
    await proxy.close();
    expect(await session.ended).toEqual({ reason: 'closed' });
    await waitFor(() => !isAlive(pid), { what: 'the upstream to exit' });
  });

  it('rejects bad options with InvalidConfigError', () => {
    expect(() => createProxy({ upstream: { command: 'x' }, maxResultTokens: -5 })).toThrow(/maxResultTokens/);
  });
});
