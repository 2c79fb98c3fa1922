import { request as httpRequest } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import {
  cleanUp,
  cliArguments,
  delay,
  fixtureServer,
  isAlive,
  spawnTracked,
  upstreamChildren,
  waitFor,
} from './helpers';

afterEach(cleanUp);

type TextBlock = { type: string; text: string };

/** Starts `spillway-mcp --listen 0 --no-stdio <args> -- node fixture-server.mjs` and returns its URL. */
async function startListening(args: readonly string[]) {
  const proxy = spawnTracked(
    process.execPath,
    cliArguments(['--listen', '0', '--no-stdio', ...args, '--', process.execPath, fixtureServer]),
  );
  await waitFor(() => /listening on (\S+)/.test(proxy.stderr()), { what: 'the proxy to listen' });
  const url = (/listening on (\S+)/.exec(proxy.stderr()) as RegExpExecArray)[1] as string;
  return { proxy, url, pid: proxy.child.pid as number };
}

async function connectClient(url: string, name: string) {
  const transport = new StreamableHTTPClientTransport(new URL(url));
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

/** POSTs a JSON-RPC message with a session id, as a client that does not know its session ended. */
function postWithSession(
  url: string,
  sessionId: string,
): Promise<{ status: number | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const post = httpRequest(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': sessionId,
        'mcp-protocol-version': '2025-06-18',
      },
    });
    post.on('response', (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => {
        body += chunk.toString('utf8');
      });
      response.on('end', () => resolve({ status: response.statusCode, body }));
    });
    post.on('error', reject);
    post.end(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list', params: {} }));
  });
}

describe('spillway-mcp --listen: sessions over HTTP', () => {
  it('closes a session idle past --session-idle-timeout, stops its upstream child, and answers its id with 404', async () => {
    const { url, pid } = await startListening(['--session-idle-timeout', '1500']);
    const gone = await connectClient(url, 'goes-away');
    const staying = await connectClient(url, 'stays');
    await gone.client.callTool({ name: 'echo', arguments: { value: 1 } });
    await staying.client.callTool({ name: 'echo', arguments: { value: 2 } });
    await waitFor(() => upstreamChildren(pid).length >= 2, { what: 'two upstream children' });
    const before = upstreamChildren(pid);
    const sessionId = gone.transport.sessionId as string;
    // The client goes away without DELETE (what the conformance client and crashed clients do).
    await gone.client.close();
    await waitFor(() => upstreamChildren(pid).length < before.length, {
      what: 'the idle session’s upstream to be stopped',
      timeout: 15_000,
    });
    expect(before.filter((child) => isAlive(child))).toHaveLength(before.length - 1);
    const answer = await postWithSession(url, sessionId);
    expect(answer.status).toBe(404);
    expect(answer.body).toMatch(/Session not found/);
    // The client that keeps its event stream open is active: its session outlives the timeout.
    await delay(2500);
    expect((await staying.client.callTool({ name: 'echo', arguments: { value: 3 } })).content).toEqual([
      { type: 'text', text: '3' },
    ]);
    await staying.client.close();
    await waitFor(() => upstreamChildren(pid).length === 0, {
      what: 'every child to be stopped',
      timeout: 15_000,
    });
  });

  it('refuses an initialize beyond --max-sessions with a clear error, and accepts one once a session ends', async () => {
    const { url } = await startListening(['--max-sessions', '2']);
    const first = await connectClient(url, 'first');
    await connectClient(url, 'second');
    await expect(connectClient(url, 'third')).rejects.toThrow(
      /Too many sessions: this proxy serves at most 2/,
    );
    await first.transport.terminateSession();
    await first.client.close();
    const fourth = await connectClient(url, 'fourth');
    expect((await fourth.client.callTool({ name: 'echo', arguments: { value: 4 } })).content).toEqual([
      { type: 'text', text: '4' },
    ]);
  });

  it('keeps each session’s cut results private: another client’s ref is unknown, and its search finds nothing', async () => {
    const { url } = await startListening(['--tool', 'big=500']);
    const owner = await connectClient(url, 'owner');
    const other = await connectClient(url, 'other');
    const result = await owner.client.callTool({ name: 'big', arguments: { chars: 20_000 } });
    const text = (result.content as TextBlock[])[0]?.text ?? '';
    const [, ref, offset] = /\{"ref":"([A-Za-z0-9_-]{22})","offset":(\d+)\}/.exec(text) as unknown as [
      string,
      string,
      string,
    ];
    const stolen = await other.client.callTool({ name: 'spillway_recall', arguments: { ref, offset: 0 } });
    expect(stolen.isError).toBe(true);
    expect((stolen.content as TextBlock[])[0]?.text).toMatch(/Nothing is kept under the ref/);
    const searched = await other.client.callTool({
      name: 'spillway_recall',
      arguments: { search: 'line 5' },
    });
    expect((searched.content as TextBlock[])[0]?.text).toMatch(/no cut material is kept here/);
    const own = await owner.client.callTool({
      name: 'spillway_recall',
      arguments: { ref, offset: Number(offset), length: 100 },
    });
    expect(own.isError).toBeFalsy();
    expect((own.content as TextBlock[])[1]?.text).toHaveLength(100);
    // A search that stops at its 25 ms limit (a busy machine) says how to go on: go on, as a model would.
    let ownSearch = await owner.client.callTool({
      name: 'spillway_recall',
      arguments: { search: '^line 77:' },
    });
    for (let step = 0; step < 50; step++) {
      const goOn = /go on with spillway_recall (\{[^\n]*\})\.\]$/.exec(
        (ownSearch.content as TextBlock[])[0]?.text ?? '',
      )?.[1];
      if (goOn === undefined || !(ownSearch.content as TextBlock[])[0]?.text.includes('no match')) break;
      ownSearch = await owner.client.callTool({ name: 'spillway_recall', arguments: JSON.parse(goOn) });
    }
    expect((ownSearch.content as TextBlock[])[0]?.text).toMatch(
      new RegExp(`\\{"ref":"${ref}","offset":\\d+\\}: line 77: the quick brown fox`),
    );
  });
});
