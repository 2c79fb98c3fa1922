import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanUp, cliArguments, everythingBin, fixtureServer, packageDirectory } from './helpers';

afterEach(cleanUp);

/**
 * An SDK client through the proxy that asks for `protocolVersion` (the SDK client always asks for its
 * newest: the request is rewritten on its way out) and records the version it was answered with.
 */
async function connectAsking(protocolVersion: string, upstream: string[], env: Record<string, string> = {}) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: cliArguments(['--', ...upstream]),
    cwd: packageDirectory,
    env: { ...(process.env as Record<string, string>), ...env },
    stderr: 'pipe',
  });
  const send = transport.send.bind(transport);
  transport.send = (message: JSONRPCMessage) =>
    send(
      'method' in message && message.method === 'initialize'
        ? ({ ...message, params: { ...message.params, protocolVersion } } as JSONRPCMessage)
        : message,
    );
  let answered: string | undefined;
  (transport as { setProtocolVersion?: (version: string) => void }).setProtocolVersion = (version) => {
    answered = version;
  };
  const client = new Client({ name: 'old-client', version: '1.0.0' });
  await client.connect(transport);
  return { client, answered: () => answered };
}

async function upstreamSaw(client: Client): Promise<{ requestedVersion: string; answeredVersion: string }> {
  const result = await client.callTool({ name: 'protocol', arguments: {} });
  return JSON.parse((result.content as Array<{ text: string }>)[0]?.text ?? '{}');
}

describe('the protocol version through spillway-mcp', () => {
  it('offers upstream the older version the client asked for, and answers with it', async () => {
    const { client, answered } = await connectAsking('2024-11-05', [process.execPath, fixtureServer]);
    expect(answered()).toBe('2024-11-05');
    expect(await upstreamSaw(client)).toEqual({
      requestedVersion: '2024-11-05',
      answeredVersion: '2024-11-05',
    });
    await client.close();
  });

  it('answers the client with the version the upstream chose, when it is another', async () => {
    const { client, answered } = await connectAsking('2024-11-05', [process.execPath, fixtureServer], {
      FIXTURE_PROTOCOL_VERSION: '2025-03-26',
    });
    expect(await upstreamSaw(client)).toEqual({
      requestedVersion: '2024-11-05',
      answeredVersion: '2025-03-26',
    });
    expect(answered()).toBe('2025-03-26');
    await client.close();
  });

  it('gets server-everything to speak 2025-03-26 with a client that asks for it', async () => {
    const { client, answered } = await connectAsking('2025-03-26', [
      process.execPath,
      everythingBin,
      'stdio',
    ]);
    expect(answered()).toBe('2025-03-26');
    expect((await client.callTool({ name: 'echo', arguments: { message: 'old' } })).content).toEqual([
      { type: 'text', text: 'Echo: old' },
    ]);
    await client.close();
  });
});
