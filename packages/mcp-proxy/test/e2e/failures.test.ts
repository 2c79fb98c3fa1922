import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import {
  cleanUp,
  cliArguments,
  connectOverHttp,
  connectThroughProxy,
  descendantsOf,
  fixtureServer,
  isAlive,
  packageDirectory,
  spawnTracked,
  waitFor,
} from './helpers';

const directory = mkdtempSync(join(tmpdir(), 'spillway-failures-'));

afterEach(cleanUp);

describe('spillway-mcp when things go wrong', () => {
  it('cancelling a long call cancels it upstream', async () => {
    const eventsFile = join(directory, 'events.txt');
    const { client } = await connectThroughProxy({
      upstream: [process.execPath, fixtureServer],
      env: { FIXTURE_EVENTS_FILE: eventsFile },
    });
    const controller = new AbortController();
    const call = client.callTool({ name: 'sleep', arguments: { ms: 60_000 } }, undefined, {
      signal: controller.signal,
    });
    await waitFor(() => existsSync(eventsFile) && readFileSync(eventsFile, 'utf8').includes('started'), {
      what: 'the call to start',
    });
    controller.abort('the user pressed stop');
    await expect(call).rejects.toThrow();
    await waitFor(() => readFileSync(eventsFile, 'utf8').includes('cancelled'), {
      what: 'the upstream to see the cancellation',
    });
  });

  it('a crashing upstream fails the pending call with a clear error, and the proxy exits 1 with a message', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: cliArguments(['--', process.execPath, fixtureServer]),
      cwd: packageDirectory,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const client = new Client({ name: 'crash-test', version: '1.0.0' });
    let closed = false;
    client.onclose = () => {
      closed = true;
    };
    await client.connect(transport);
    const proxyPid = transport.pid as number;
    // The SDK client prefixes "MCP error -32000: " once; the proxy's message must not carry another.
    await expect(client.callTool({ name: 'crash', arguments: {} })).rejects.toThrow(
      /^MCP error -32000: The upstream MCP server ".*" exited with code 3; tools\/call got no answer$/,
    );
    await waitFor(() => closed, { what: 'the proxy to exit' });
    expect(stderr).toMatch(
      /spillway-mcp: The upstream MCP server ".*fixture-server\.mjs" exited with code 3/,
    );
    await waitFor(() => !isAlive(proxyPid), { what: 'the proxy process to end' });
  });

  it('skips malformed upstream output and keeps working', async () => {
    const { client, stderr } = await connectThroughProxy({
      upstream: [process.execPath, fixtureServer],
      env: { FIXTURE_GARBAGE: '1' },
    });
    const result = await client.callTool({ name: 'garbage', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'still fine' }]);
    expect(stderr()).toContain('not a JSON-RPC message');
  });

  it('passes a cancellation from the server to the client (server→client request)', async () => {
    let clientSawAbort = false;
    const { client } = await connectThroughProxy({
      upstream: [process.execPath, fixtureServer],
      clientOptions: { capabilities: { sampling: {} } },
      setup: (client) =>
        client.setRequestHandler(CreateMessageRequestSchema, async (_request, extra) => {
          await new Promise<void>((resolve) => extra.signal.addEventListener('abort', () => resolve()));
          clientSawAbort = true;
          return { model: 'm', role: 'assistant', content: { type: 'text', text: 'too late' } };
        }),
    });
    const result = await client.callTool({ name: 'ask-then-cancel', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'cancelled' }]);
    await waitFor(() => clientSawAbort, { what: 'the client to see the cancellation' });
  });

  it('answers 200 concurrent tool calls, each with its own result', async () => {
    const { client } = await connectThroughProxy({ upstream: [process.execPath, fixtureServer] });
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        client.callTool({ name: 'echo', arguments: { value: index } }),
      ),
    );
    results.forEach((result, index) => {
      expect(result.content).toEqual([{ type: 'text', text: String(index) }]);
    });
  });

  it('passes tools/list cursors through and adds the paging tool on the last page only', async () => {
    const { client } = await connectThroughProxy({ upstream: [process.execPath, fixtureServer] });
    const first = await client.listTools();
    expect(first.tools.map((tool) => tool.name)).toEqual(['echo', 'sleep', 'crash']);
    expect(first.nextCursor).toBe('page-2');
    const second = await client.listTools({ cursor: first.nextCursor });
    expect(second.tools.map((tool) => tool.name)).toEqual([
      'big',
      'garbage',
      'progress',
      'ask-then-cancel',
      'protocol',
      'close-stdout',
      'strict',
      'spillway_recall',
    ]);
    expect(second.nextCursor).toBeUndefined();
  });

  it('drops structuredContent that cannot stay valid, with its outputSchema, and says the list changed', async () => {
    let listChanged = 0;
    const { client } = await connectThroughProxy({
      upstream: [process.execPath, fixtureServer],
      setup: (client) =>
        client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
          listChanged++;
        }),
    });
    // Not listed first: the proxy fetches the schema itself; the SDK client has none cached to enforce.
    const result = await client.callTool({ name: 'strict', arguments: {} });
    expect(result.structuredContent).toBeUndefined();
    expect((result.content as Array<{ text: string }>)[0]?.text).toMatch(/^\{"items":\["item number 0"/);
    await waitFor(() => listChanged === 1, { what: 'tools/list_changed' });
    const second = await client.listTools({ cursor: 'page-2' });
    const strict = second.tools.find((tool) => tool.name === 'strict');
    expect(strict).toBeDefined();
    expect(strict?.outputSchema).toBeUndefined();
  });

  it('times a silent request out, but lets progress reset the timeout', async () => {
    const { client } = await connectThroughProxy({
      proxyArgs: ['--timeout', '2000'],
      upstream: [process.execPath, fixtureServer],
    });
    // 8 × 400 ms = 3.2 s in all, well past the timeout, while each gap leaves 1.6 s to spare (CI runs
    // this on 2 busy cores).
    const progressing = await client.callTool({ name: 'progress', arguments: { steps: 8, interval: 400 } });
    expect(progressing.content).toEqual([{ type: 'text', text: 'done' }]);
    await expect(client.callTool({ name: 'sleep', arguments: { ms: 60_000 } })).rejects.toMatchObject({
      code: -32001,
    });
  });

  it('leaves no child process behind when the client closes stdin', async () => {
    const { client, pid } = await connectThroughProxy({ upstream: [process.execPath, fixtureServer] });
    await client.callTool({ name: 'echo', arguments: { value: 1 } });
    const children = descendantsOf(pid);
    expect(children.length).toBeGreaterThan(0);
    await client.close();
    await waitFor(() => !isAlive(pid) && children.every((child) => !isAlive(child)), {
      what: 'the proxy and its upstream to exit',
    });
  });

  it('stops an upstream that is still starting when the client closes stdin', async () => {
    const eventsFile = join(directory, 'slow-start.txt');
    const proxy = spawnTracked(process.execPath, cliArguments(['--', process.execPath, fixtureServer]), {
      env: { FIXTURE_EVENTS_FILE: eventsFile, FIXTURE_START_DELAY: '60000', FIXTURE_STUBBORN: '1' },
    });
    proxy.child.stdin.write(
      `${JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      })}\n`,
    );
    await waitFor(() => existsSync(eventsFile) && /pid \d+/.test(readFileSync(eventsFile, 'utf8')), {
      what: 'the upstream to start',
    });
    const upstreamPid = Number((/pid (\d+)/.exec(readFileSync(eventsFile, 'utf8')) as RegExpExecArray)[1]);
    try {
      // The client gives up while the upstream has not answered initialize yet.
      proxy.child.stdin.end();
      expect((await proxy.exited).code).toBe(0);
      await waitFor(() => !isAlive(upstreamPid), { what: 'the starting upstream to be stopped' });
    } finally {
      if (isAlive(upstreamPid)) process.kill(upstreamPid, 'SIGKILL');
    }
  });

  it('with --listen, ends an HTTP session’s upstream on DELETE and every child on SIGTERM', async () => {
    const first = await connectOverHttp({ upstream: [process.execPath, fixtureServer] });
    const proxyPid = first.proxy.child.pid as number;
    await first.client.callTool({ name: 'echo', arguments: { value: 1 } });
    const firstChildren = descendantsOf(proxyPid);
    expect(firstChildren.length).toBeGreaterThan(0);
    await (first.client.transport as StreamableHTTPClientTransport).terminateSession();
    await waitFor(() => firstChildren.every((child) => !isAlive(child)), {
      what: 'the session’s upstream to exit',
    });

    const second = new Client({ name: 'second', version: '1.0.0' });
    await second.connect(new StreamableHTTPClientTransport(new URL(first.url)));
    expect((await second.callTool({ name: 'echo', arguments: { value: 2 } })).content).toEqual([
      { type: 'text', text: '2' },
    ]);
    const secondChildren = descendantsOf(proxyPid);
    expect(secondChildren.length).toBeGreaterThan(0);
    first.proxy.child.kill('SIGTERM');
    expect((await first.proxy.exited).code).toBe(0);
    await waitFor(() => secondChildren.every((child) => !isAlive(child)), { what: 'every upstream to exit' });
    await second.close().catch(() => {});
  });

  it('fails initialize with the reason when the upstream cannot start, and exits 1', async () => {
    const proxy = spawnTracked(process.execPath, cliArguments(['--', '/nonexistent/mcp-server']));
    proxy.child.stdin.write(
      `${JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      })}\n`,
    );
    const { code } = await proxy.exited;
    expect(code).toBe(1);
    const response = JSON.parse(proxy.stdout().trim()) as { id: number; error: { message: string } };
    expect(response.id).toBe(1);
    expect(response.error.message).toMatch(
      /Could not start the upstream MCP server "\/nonexistent\/mcp-server".*ENOENT/,
    );
    expect(proxy.stderr()).toMatch(/ENOENT/);
  });

  it('keeps a large result in budget and pages it when the budget is per tool', async () => {
    const { client } = await connectThroughProxy({
      proxyArgs: ['--tool', 'big=500'],
      upstream: [process.execPath, fixtureServer],
    });
    const result = await client.callTool({ name: 'big', arguments: { chars: 20_000 } });
    const text = (result.content as Array<{ text: string }>)[0]?.text ?? '';
    expect(text.length).toBeLessThan(3000);
    expect(text).toContain('of 20000 characters');
  });
});

process.on('exit', () => rmSync(directory, { recursive: true, force: true }));
