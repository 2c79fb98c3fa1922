import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanUp, cliArguments, fixtureServer, spawnTracked, waitFor } from './helpers';

afterEach(cleanUp);

const version = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

describe('the spillway-mcp command line', () => {
  it('prints help with the options and their defaults', async () => {
    const run = spawnTracked(process.execPath, cliArguments(['--help']));
    expect((await run.exited).code).toBe(0);
    for (const option of [
      '--url',
      '--listen',
      '--max-tokens',
      'default: 9000',
      '--head-ratio',
      '--max-media-bytes',
      '--tool',
      '--no-paging',
      '--timeout',
      '--config',
      '--verbose',
    ]) {
      expect(run.stdout()).toContain(option);
    }
  });

  it('prints the version', async () => {
    const run = spawnTracked(process.execPath, cliArguments(['--version']));
    expect((await run.exited).code).toBe(0);
    expect(run.stdout().trim()).toBe(version);
  });

  it('exits 2 with a message on stderr, and nothing on stdout, when no upstream is given', async () => {
    const run = spawnTracked(process.execPath, cliArguments(['--max-tokens', '100']));
    expect((await run.exited).code).toBe(2);
    expect(run.stdout()).toBe('');
    expect(run.stderr()).toMatch(/no upstream server/);
  });

  it('exits 2 with one line on stderr for every usage error', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['--bogus', '--', 'node', 'server.js'], /unknown option '--bogus'/],
      [['--max-tokens', 'lots', '--', 'node', 'server.js'], /--max-tokens/],
      [['--listen'], /--listen/],
      [['--config', '/nonexistent/config.json'], /config/],
      [['--header', 'Authorization: Bearer t', '--', 'node', 'server.js'], /--header.*upstream over HTTP/],
    ];
    await Promise.all(
      cases.map(async ([args, message]) => {
        const run = spawnTracked(process.execPath, cliArguments(args));
        expect((await run.exited).code, args.join(' ')).toBe(2);
        expect(run.stdout(), args.join(' ')).toBe('');
        const lines = run.stderr().trimEnd().split('\n');
        expect(lines, args.join(' ')).toHaveLength(1);
        expect(lines[0]).toMatch(/^spillway-mcp: /);
        expect(lines[0]).toMatch(message);
      }),
    );
  });

  it('exits 2 on a bad option value', async () => {
    const run = spawnTracked(
      process.execPath,
      cliArguments(['--head-ratio', '3', '--', process.execPath, fixtureServer]),
    );
    expect((await run.exited).code).toBe(2);
    expect(run.stderr()).toMatch(/headRatio/);
  });

  it('writes only protocol to stdout, even with --verbose and an upstream that logs to stderr', async () => {
    const run = spawnTracked(
      process.execPath,
      cliArguments(['--verbose', '--', process.execPath, fixtureServer]),
    );
    run.child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`,
    );
    run.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    run.child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'big', arguments: { chars: 100000 } } })}\n`,
    );
    const messages = () =>
      run
        .stdout()
        .split('\n')
        .filter((line) => line.length > 0)
        .map(
          (line) => JSON.parse(line) as { jsonrpc: string; id?: number; method?: string; result?: unknown },
        );
    await waitFor(() => messages().some((message) => message.id === 2 && message.result !== undefined), {
      what: 'the tools/call answer',
    });
    run.child.stdin.end();
    expect((await run.exited).code).toBe(0);
    // Every stdout line is a JSON-RPC message: the two answers, and the proxy's ping after initialization.
    for (const message of messages()) expect(message.jsonrpc).toBe('2.0');
    expect(
      messages()
        .filter((message) => message.result !== undefined)
        .map((message) => message.id),
    ).toEqual([1, 2]);
    expect(
      messages()
        .filter((message) => message.method !== undefined)
        .map((message) => message.method),
    ).toEqual(['ping']);
    expect(run.stderr()).toContain('spillway-mcp: connected to');
    expect(run.stderr()).toContain('tools/call big: content[0]: kept');
  });
});
