import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  cleanUp,
  cliArguments,
  fixtureServer,
  isAlive,
  packageDirectory,
  spawnTracked,
  waitFor,
} from './helpers';

const directory = mkdtempSync(join(tmpdir(), 'spillway-health-'));
afterEach(cleanUp);
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** The fixture server over Streamable HTTP on `port` (0: any); resolves its port. */
async function startHttpFixture(port = 0, env: Record<string, string> = {}) {
  const server = spawnTracked(process.execPath, [fixtureServer], {
    env: { FIXTURE_HTTP_PORT: String(port), ...env },
  });
  await waitFor(() => /port \d+/.test(server.stdout()), { what: 'the upstream HTTP server' });
  return { server, port: Number((/port (\d+)/.exec(server.stdout()) as RegExpExecArray)[1]) };
}

/** A client of `spillway-mcp <args>` over stdio, with its stderr, exit and list_changed count. */
async function connectProxy(args: readonly string[], env: Record<string, string> = {}) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: cliArguments(args),
    cwd: packageDirectory,
    env: { ...(process.env as Record<string, string>), ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = new Client({ name: 'health-test', version: '1.0.0' });
  let listChanged = 0;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    listChanged++;
  });
  let closed = false;
  client.onclose = () => {
    closed = true;
  };
  await client.connect(transport);
  return {
    client,
    pid: transport.pid as number,
    stderr: () => stderr,
    listChanged: () => listChanged,
    closed: () => closed,
  };
}

const startedIn = (file: string) => existsSync(file) && readFileSync(file, 'utf8').includes('started');

describe('spillway-mcp when the upstream dies, hangs or is slow', () => {
  it('a --url upstream killed mid-call: the call fails at once, calls while it is down fail at once, and it reconnects with list_changed', async () => {
    const events = join(directory, 'url-events.txt');
    const first = await startHttpFixture(0, { FIXTURE_EVENTS_FILE: events });
    const url = `http://127.0.0.1:${first.port}/mcp`;
    const proxy = await connectProxy(['--url', url]);
    const call = proxy.client.callTool({ name: 'sleep', arguments: { ms: 600_000 } });
    await waitFor(() => startedIn(events), { what: 'the call to start upstream' });
    first.server.child.kill('SIGKILL');
    // Answered with an error at once, not after the 10-minute request timeout.
    await expect(call).rejects.toThrow(
      /connection to the upstream MCP server .* was lost .*reconnecting.*tools\/call got no answer/,
    );
    await expect(proxy.client.callTool({ name: 'echo', arguments: { value: 1 } })).rejects.toThrow(
      /reconnecting \(attempt \d+ of 10\); tools\/call got no answer/,
    );
    // The server comes back on the same port: the proxy reaches it again and says the lists may differ.
    await startHttpFixture(first.port);
    await waitFor(() => proxy.listChanged() > 0, {
      what: 'tools/list_changed after the reconnection',
      timeout: 30_000,
    });
    expect((await proxy.client.callTool({ name: 'echo', arguments: { value: 2 } })).content).toEqual([
      { type: 'text', text: '2' },
    ]);
    expect(proxy.stderr()).toMatch(/was lost .*; reconnecting/);
    expect(proxy.stderr()).toMatch(/reconnected to http:\/\/127\.0\.0\.1:\d+\/mcp/);
    expect(proxy.closed()).toBe(false);
  });

  it('a --url upstream that does not come back: the proxy gives up after --reconnect-attempts and exits 1', async () => {
    const upstream = await startHttpFixture();
    const proxy = await connectProxy([
      '--url',
      `http://127.0.0.1:${upstream.port}/mcp`,
      '--reconnect-attempts',
      '2',
    ]);
    upstream.server.child.kill('SIGKILL');
    await expect(proxy.client.callTool({ name: 'echo', arguments: { value: 1 } })).rejects.toThrow();
    await waitFor(() => proxy.closed(), { what: 'the proxy to exit', timeout: 30_000 });
    expect(proxy.stderr()).toMatch(/could not be reached again after 2 attempts/);
    await waitFor(() => !isAlive(proxy.pid), { what: 'the proxy process to end' });
  });

  it('a stdio upstream killed mid-call: the call fails at once and the proxy exits 1 with a clear line', async () => {
    const events = join(directory, 'stdio-events.txt');
    const proxy = await connectProxy(['--', process.execPath, fixtureServer], {
      FIXTURE_EVENTS_FILE: events,
    });
    const call = proxy.client.callTool({ name: 'sleep', arguments: { ms: 600_000 } });
    await waitFor(() => startedIn(events), { what: 'the call to start upstream' });
    const upstreamPid = Number((/pid (\d+)/.exec(readFileSync(events, 'utf8')) as RegExpExecArray)[1]);
    process.kill(upstreamPid, 'SIGKILL');
    await expect(call).rejects.toThrow(
      /The upstream MCP server ".*" was killed by SIGKILL; tools\/call got no answer/,
    );
    await waitFor(() => proxy.closed(), { what: 'the proxy to exit' });
    expect(proxy.stderr()).toMatch(
      /spillway-mcp: The upstream MCP server ".*fixture-server\.mjs" was killed by SIGKILL/,
    );
  });

  it('a stdio upstream that closes its stdout but keeps running: the call fails, the child is stopped, the proxy exits 1', async () => {
    const events = join(directory, 'stdout-events.txt');
    const proxy = await connectProxy(['--', process.execPath, fixtureServer], {
      FIXTURE_EVENTS_FILE: events,
      FIXTURE_STUBBORN: '1',
    });
    const upstreamPid = Number((/pid (\d+)/.exec(readFileSync(events, 'utf8')) as RegExpExecArray)[1]);
    await expect(proxy.client.callTool({ name: 'close-stdout', arguments: {} })).rejects.toThrow(
      /closed its output; tools\/call got no answer/,
    );
    await waitFor(() => proxy.closed() && !isAlive(upstreamPid), { what: 'the proxy and its child to end' });
  });

  it('an upstream slower to start than --connect-timeout: initialize fails with the reason, the child is stopped, exit 1', async () => {
    const events = join(directory, 'slow-events.txt');
    const proxy = spawnTracked(
      process.execPath,
      cliArguments(['--connect-timeout', '1500', '--', process.execPath, fixtureServer]),
      { env: { FIXTURE_EVENTS_FILE: events, FIXTURE_START_DELAY: '600000' } },
    );
    proxy.child.stdin.write(
      `${JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      })}\n`,
    );
    expect((await proxy.exited).code).toBe(1);
    const answer = JSON.parse(proxy.stdout().trim()) as { id: number; error: { message: string } };
    expect(answer.error.message).toMatch(/no answer to initialize within 1500 ms/);
    const upstreamPid = Number((/pid (\d+)/.exec(readFileSync(events, 'utf8')) as RegExpExecArray)[1]);
    await waitFor(() => !isAlive(upstreamPid), { what: 'the slow upstream to be stopped' });
  });
});
