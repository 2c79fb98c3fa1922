import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanUp, connectThroughProxy, everythingHttpServer, spawnTracked, waitFor } from './helpers';

describe('spillway-mcp --url (upstream over HTTP, on loopback)', () => {
  let base: string;

  beforeAll(async () => {
    const upstream = spawnTracked(process.execPath, [everythingHttpServer]);
    await waitFor(() => /port \d+/.test(upstream.stdout()), { what: 'the upstream HTTP server' });
    base = `http://127.0.0.1:${(/port (\d+)/.exec(upstream.stdout()) as RegExpExecArray)[1]}`;
  });
  afterAll(cleanUp);

  it('connects over Streamable HTTP and forwards calls with progress', async () => {
    const { client } = await connectThroughProxy({ proxyArgs: ['--url', `${base}/mcp`], upstream: [] });
    expect(client.getServerVersion()?.name).toBe('mcp-servers/everything');
    const echo = await client.callTool({ name: 'echo', arguments: { message: 'over http' } });
    expect(echo.content).toEqual([{ type: 'text', text: 'Echo: over http' }]);
    const progress: number[] = [];
    await client.callTool(
      { name: 'trigger-long-running-operation', arguments: { duration: 0.2, steps: 2 } },
      undefined,
      { onprogress: (update) => progress.push(update.progress) },
    );
    expect(progress[0]).toBe(1);
  });

  it('falls back to HTTP+SSE when the endpoint is not Streamable HTTP', async () => {
    const { client, stderr } = await connectThroughProxy({
      proxyArgs: ['--verbose', '--url', `${base}/sse`],
      upstream: [],
    });
    const echo = await client.callTool({ name: 'echo', arguments: { message: 'over sse' } });
    expect(echo.content).toEqual([{ type: 'text', text: 'Echo: over sse' }]);
    expect(stderr()).toContain(`connected to ${base}/sse`);
  });
});
