import { request as httpRequest } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createProxy, type McpProxy } from '../../src/index';
import { listenHttp } from '../../src/proxy/listen-http';
import type { ProxySession } from '../../src/proxy/proxy-session';
import { delay, fixtureServer, isAlive, waitFor } from './helpers';

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

  it('ends the session of an HTTP request it rejects (DNS-rebinding protection), so none pile up', async () => {
    proxy = createProxy({ upstream: { command: process.execPath, args: [fixtureServer] } });
    const sessions: ProxySession[] = [];
    const listener = await listenHttp({
      maxBodyBytes: 1 << 20,
      connect: async (transport) => {
        const session = await (proxy as McpProxy).connect(transport);
        sessions.push(session);
        return session;
      },
    });
    try {
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      });
      const status = await new Promise<number | undefined>((resolve, reject) => {
        const post = httpRequest(listener.url, {
          method: 'POST',
          headers: {
            host: 'attacker.example',
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
        });
        post.on('response', (response) => {
          response.resume();
          resolve(response.statusCode);
        });
        post.on('error', reject);
        post.end(body);
      });
      expect(status).toBe(403);
      expect(sessions).toHaveLength(1);
      const outcome = await Promise.race([sessions[0]?.ended, delay(5000).then(() => 'still open')]);
      expect(outcome).toEqual({ reason: 'closed' });
    } finally {
      await listener.close();
    }
  });
});
