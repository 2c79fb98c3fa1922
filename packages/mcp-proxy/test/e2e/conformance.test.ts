import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { cleanUp, cliArguments, descendantsOf, spawnTracked, upstreamChildren, waitFor } from './helpers';

// The official MCP conformance suite (@modelcontextprotocol/conformance; 0.1.13, the last release that
// runs on Node 20) run against spillway-mcp, with the suite's own reference server as the upstream.
const require = createRequire(import.meta.url);
const conformanceBin = join(
  require.resolve('@modelcontextprotocol/conformance/package.json').replace(/package\.json$/, ''),
  'dist/index.js',
);
const conformanceServer = fileURLToPath(new URL('../fixtures/conformance-server.ts', import.meta.url));
const serverCommand = [process.execPath, '--import', 'tsx', conformanceServer];
const results = mkdtempSync(join(tmpdir(), 'spillway-conformance-'));

afterEach(cleanUp);
afterAll(() => rmSync(results, { recursive: true, force: true }));

/** Runs `conformance server --url <url> [--scenario <name>]`; resolves its output once it exits 0. */
async function runConformance(url: string, scenario?: string): Promise<string> {
  const run = spawnTracked(
    process.execPath,
    [conformanceBin, 'server', '--url', url, ...(scenario === undefined ? [] : ['--scenario', scenario])],
    { cwd: results },
  );
  const { code } = await run.exited;
  const output = run.stdout() + run.stderr();
  expect(code, output).toBe(0);
  // All scenarios end with "Total: N passed, 0 failed", one with "Passed: N/N, 0 failed".
  expect(output).toMatch(
    scenario === undefined ? /Total: \d+ passed, 0 failed/ : /Passed: (\d+)\/\1, 0 failed/,
  );
  return output;
}

async function listen(args: readonly string[]) {
  const proxy = spawnTracked(process.execPath, cliArguments(['--listen', '0', '--no-stdio', ...args]));
  await waitFor(() => /listening on (\S+)/.test(proxy.stderr()), { what: 'the proxy to listen' });
  return { proxy, url: (/listening on (\S+)/.exec(proxy.stderr()) as RegExpExecArray)[1] as string };
}

describe('the official MCP conformance scenarios through spillway-mcp', () => {
  it('passes every server scenario with the reference server behind --url', {
    timeout: 240_000,
  }, async () => {
    const upstream = spawnTracked(process.execPath, ['--import', 'tsx', conformanceServer], {
      env: { PORT: '0' },
    });
    await waitFor(() => /port \d+/.test(upstream.stdout()), {
      what: 'the conformance server',
      timeout: 60_000,
    });
    const port = (/port (\d+)/.exec(upstream.stdout()) as RegExpExecArray)[1];
    const { url } = await listen(['--url', `http://127.0.0.1:${port}/mcp`]);
    const output = await runConformance(url);
    // The suite's 30 scenarios (40 checks in 0.1.13) all ran.
    expect(output).toMatch(/Total: (\d{2}) passed, 0 failed/);
    expect(Number((/Total: (\d+) passed/.exec(output) as RegExpExecArray)[1])).toBeGreaterThanOrEqual(40);
  });

  it('passes scenarios with a stdio upstream per session, and leaves no process behind', {
    timeout: 240_000,
  }, async () => {
    const { proxy, url } = await listen([
      '--session-idle-timeout',
      '2000',
      '--',
      ...serverCommand,
      '--stdio',
    ]);
    const pid = proxy.child.pid as number;
    // The conformance client closes without DELETE: each scenario leaves an idle session behind.
    for (const scenario of [
      'server-initialize',
      'tools-call-with-progress',
      'tools-call-sampling',
      'resources-subscribe',
    ]) {
      await runConformance(url, scenario);
    }
    // Idle sessions are closed and their upstream children stopped, while the proxy keeps serving.
    await waitFor(() => upstreamChildren(pid).length === 0, {
      what: 'every session’s upstream child to be stopped',
      timeout: 30_000,
    });
    await runConformance(url, 'ping');
    proxy.child.kill('SIGTERM');
    expect((await proxy.exited).code).toBe(0);
    expect(descendantsOf(pid)).toEqual([]);
  });
});
