import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidConfigError } from '@spillway/core';
import { describe, expect, it } from 'vitest';
import { VERSION } from '../version';
import { CliExit, parseCliArguments } from './parse-cli-arguments';
import { resolveProxyOptions } from './resolve-proxy-options';

const upstream = { command: 'node', args: ['server.js'] };

/** Writes `config` to a fresh JSON file and returns its path. */
function writeConfig(config: object): string {
  const file = join(mkdtempSync(join(tmpdir(), 'spillway-config-')), 'config.json');
  writeFileSync(file, JSON.stringify(config));
  return file;
}

describe('resolveProxyOptions', () => {
  it('applies the documented defaults', () => {
    const resolved = resolveProxyOptions({ upstream });
    expect(resolved.budget).toEqual({
      maxResultTokens: 9000,
      maxMediaBytes: 1048576,
      headRatio: 0.6,
      mediaPolicy: 'placeholder',
    });
    expect(resolved.paging).toBe(true);
    expect(resolved.requestTimeout).toBe(600_000);
    expect(resolved.maxMessageBytes).toBe(256 * 1024 * 1024);
    expect(resolved.recallStoreMaxBytes).toBe(256 * 1024 * 1024);
    expect(resolved.connectTimeout).toBe(60_000);
    expect(resolved.reconnectAttempts).toBe(10);
    expect(resolved.sessionIdleTimeout).toBe(300_000);
    expect(resolved.maxSessions).toBe(64);
    expect(resolved.resourceBudget).toEqual(resolved.budget);
    expect(resolved.promptBudget).toEqual(resolved.budget);
  });

  it('merges per-tool overrides over the defaults', () => {
    const resolved = resolveProxyOptions({
      upstream,
      maxResultTokens: 5000,
      tools: { read_file: { maxResultTokens: 20_000 } },
    });
    expect(resolved.tools.get('read_file')?.maxResultTokens).toBe(20_000);
    expect(resolved.tools.get('read_file')?.headRatio).toBe(0.6);
  });

  it('throws InvalidConfigError naming the bad option', () => {
    const bad = (options: object, option: string) => {
      try {
        resolveProxyOptions({ upstream, ...options });
        expect.unreachable();
      } catch (error) {
        expect(InvalidConfigError.isInstance(error)).toBe(true);
        expect((error as InvalidConfigError).option).toBe(option);
      }
    };
    bad({ maxResultTokens: 0 }, 'maxResultTokens');
    bad({ headRatio: 2 }, 'headRatio');
    bad({ mediaPolicy: 'drop' }, 'mediaPolicy');
    bad({ tools: { x: { maxResultTokens: -1 } } }, 'tools.x.maxResultTokens');
    bad({ upstream: { url: 'ftp://x' } }, 'upstream.url');
    bad({ upstream: { command: '' } }, 'upstream.command');
    bad({ requestTimeout: Number.POSITIVE_INFINITY }, 'requestTimeout');
  });
});

describe('parseCliArguments', () => {
  it('takes the upstream command after -- with its own flags', () => {
    const settings = parseCliArguments([
      '--max-tokens',
      '5000',
      '--no-paging',
      '--tool',
      'read=off',
      '--',
      'npx',
      '-y',
      'server',
      '--flag',
    ]);
    expect(settings.proxy.upstream).toEqual({ command: 'npx', args: ['-y', 'server', '--flag'] });
    expect(settings.proxy.maxResultTokens).toBe(5000);
    expect(settings.proxy.paging).toBe(false);
    expect(settings.proxy.tools).toEqual({ read: { maxResultTokens: Number.POSITIVE_INFINITY } });
    expect(settings.stdio).toBe(true);
  });

  it('reads a config file and lets flags win', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'spillway-config-')), 'config.json');
    writeFileSync(
      file,
      JSON.stringify({ command: 'node', args: ['a.js'], maxResultTokens: 100, headRatio: 0.3, listen: 9000 }),
    );
    const settings = parseCliArguments(['--config', file, '--max-tokens', '200']);
    expect(settings.proxy.upstream).toEqual({ command: 'node', args: ['a.js'] });
    expect(settings.proxy.maxResultTokens).toBe(200);
    expect(settings.proxy.headRatio).toBe(0.3);
    expect(settings.listen).toBe(9000);
  });

  it('reads "off" budgets from a config file, as on the command line', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'spillway-config-')), 'config.json');
    writeFileSync(
      file,
      JSON.stringify({
        command: 'node',
        maxResultTokens: 'off',
        tools: { read: { maxResultTokens: 'off' } },
      }),
    );
    const settings = parseCliArguments(['--config', file]);
    const resolved = resolveProxyOptions(settings.proxy);
    expect(resolved.budget.maxResultTokens).toBe(Number.POSITIVE_INFINITY);
    expect(resolved.tools.get('read')?.maxResultTokens).toBe(Number.POSITIVE_INFINITY);
  });

  it('rejects unknown config keys and a missing upstream', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'spillway-config-')), 'config.json');
    writeFileSync(file, JSON.stringify({ command: 'node', maxTokens: 5 }));
    expect(() => parseCliArguments(['--config', file])).toThrow(/config\.maxTokens/);
    expect(() => parseCliArguments([])).toThrow(/no upstream server/);
  });

  it('throws InvalidConfigError (never exits) for every usage error, and CliExit after help', () => {
    for (const args of [
      ['--bogus', '--', 'node'],
      ['--max-tokens', 'lots', '--', 'node'],
      ['--listen'],
      ['--media', 'drop', '--', 'node'],
      ['--tool', 'nonsense', '--', 'node'],
      ['--url', 'http://127.0.0.1:1/mcp', '--', 'node'],
      ['--session-idle-timeout', '0', '--', 'node'],
      ['--max-sessions', '-1', '--', 'node'],
      ['--header', 'no-colon', '--url', 'http://127.0.0.1:1/mcp'],
    ]) {
      let thrown: unknown;
      try {
        parseCliArguments(args);
      } catch (error) {
        thrown = error;
      }
      expect(InvalidConfigError.isInstance(thrown), args.join(' ')).toBe(true);
      expect((thrown as Error).message).not.toContain('\n');
    }
    let printed = '';
    expect(() =>
      parseCliArguments(['--help'], { output: { writeOut: (text) => (printed += text) } }),
    ).toThrow(CliExit);
    expect(printed).toContain('--session-idle-timeout');
  });

  it('applies --transport and --header to an upstream URL from the config file', () => {
    const file = writeConfig({ url: 'http://127.0.0.1:1/mcp' });
    const settings = parseCliArguments([
      '--config',
      file,
      '--transport',
      'sse',
      '--header',
      'Authorization: Bearer token',
    ]);
    expect(settings.proxy.upstream).toEqual({
      url: 'http://127.0.0.1:1/mcp',
      transport: 'sse',
      headers: { Authorization: 'Bearer token' },
    });
  });

  it("lets --header and --transport win over the config file's upstream, header by header", () => {
    const file = writeConfig({
      upstream: {
        url: 'http://127.0.0.1:1/mcp',
        transport: 'streamable-http',
        headers: { authorization: 'Bearer old', 'X-Team': 'a' },
      },
    });
    expect(
      parseCliArguments(['--config', file, '--header', 'Authorization: Bearer new']).proxy.upstream,
    ).toEqual({
      url: 'http://127.0.0.1:1/mcp',
      transport: 'streamable-http',
      headers: { 'X-Team': 'a', Authorization: 'Bearer new' },
    });
    expect(parseCliArguments(['--config', file, '--transport', 'sse']).proxy.upstream).toEqual({
      url: 'http://127.0.0.1:1/mcp',
      transport: 'sse',
      headers: { authorization: 'Bearer old', 'X-Team': 'a' },
    });
    // Without the flags the file's upstream is taken as it is.
    expect(parseCliArguments(['--config', file]).proxy.upstream).toEqual({
      url: 'http://127.0.0.1:1/mcp',
      transport: 'streamable-http',
      headers: { authorization: 'Bearer old', 'X-Team': 'a' },
    });
    // A --url on the command line replaces the file's upstream whole: its headers are not sent elsewhere.
    expect(parseCliArguments(['--config', file, '--url', 'http://127.0.0.1:2/mcp']).proxy.upstream).toEqual({
      url: 'http://127.0.0.1:2/mcp',
    });
  });

  it("rejects a --header that cannot be merged into the config file's headers", () => {
    const file = writeConfig({ upstream: { url: 'http://127.0.0.1:1/mcp', headers: ['X-Team: a'] } });
    expect(() => parseCliArguments(['--config', file, '--header', 'X-Team: b'])).toThrow(
      /Invalid option "upstream\.headers": expected an object/,
    );
  });

  it('rejects --header and --transport for a stdio upstream, from the command line or the config file', () => {
    const commandFile = writeConfig({ command: 'node', args: ['a.js'] });
    const upstreamFile = writeConfig({ upstream: { command: 'node' } });
    const cases: Array<[string[], string]> = [
      [['--header', 'Authorization: Bearer token', '--', 'node', 'server.js'], '--header'],
      [['--transport', 'sse', '--', 'node', 'server.js'], '--transport'],
      [['--config', commandFile, '--header', 'X-Team: a'], '--header'],
      [['--config', upstreamFile, '--transport', 'streamable-http'], '--transport'],
      // The command wins over the file's URL, so the header has nowhere to go.
      [
        ['--config', writeConfig({ url: 'http://127.0.0.1:1/mcp' }), '--header', 'X-Team: a', '--', 'node'],
        '--header',
      ],
    ];
    for (const [args, option] of cases) {
      let thrown: unknown;
      try {
        parseCliArguments(args);
      } catch (error) {
        thrown = error;
      }
      expect(InvalidConfigError.isInstance(thrown), args.join(' ')).toBe(true);
      expect((thrown as InvalidConfigError).option, args.join(' ')).toBe(option);
      expect((thrown as Error).message).toMatch(/only to an upstream over HTTP/);
      expect((thrown as Error).message).not.toContain('\n');
    }
  });

  it('reads the new flags into the options', () => {
    const settings = parseCliArguments([
      '--resource-max-tokens',
      '300',
      '--prompt-max-tokens',
      'off',
      '--session-idle-timeout',
      'off',
      '--max-sessions',
      '3',
      '--connect-timeout',
      '5000',
      '--reconnect-attempts',
      '0',
      '--recall-max-bytes',
      '1000',
      '--',
      'node',
    ]);
    const resolved = resolveProxyOptions(settings.proxy);
    expect(resolved.resourceBudget.maxResultTokens).toBe(300);
    expect(resolved.promptBudget.maxResultTokens).toBe(Number.POSITIVE_INFINITY);
    expect(resolved.sessionIdleTimeout).toBe(Number.POSITIVE_INFINITY);
    expect(resolved.maxSessions).toBe(3);
    expect(resolved.connectTimeout).toBe(5000);
    expect(resolved.reconnectAttempts).toBe(0);
    expect(resolved.recallStoreMaxBytes).toBe(1000);
  });

  it('knows the package version', () => {
    const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(VERSION).toBe(packageJson.version);
  });
});
