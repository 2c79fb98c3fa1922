import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client, type ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const resolvePath = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));

export const packageDirectory = resolvePath('../../');
export const cliPath = resolvePath('../../src/cli.ts');
export const everythingBin = resolvePath(
  '../../node_modules/@modelcontextprotocol/server-everything/dist/index.js',
);
export const filesystemBin = resolvePath(
  '../../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js',
);
export const memoryBin = resolvePath('../../node_modules/@modelcontextprotocol/server-memory/dist/index.js');
export const fixtureServer = resolvePath('../fixtures/fixture-server.mjs');
export const everythingHttpServer = resolvePath('../fixtures/everything-http.mjs');

/** Node arguments that run the CLI from source (no build needed). */
export function cliArguments(args: readonly string[]): string[] {
  return ['--conditions=@spillway/source', '--import', 'tsx', cliPath, ...args];
}

/** A client connected through `spillway-mcp` over stdio. */
export interface ProxiedClient {
  client: Client;
  transport: StdioClientTransport;
  /** Everything the proxy (and its upstream) wrote to stderr so far. */
  stderr: () => string;
  /** Process id of the proxy. */
  pid: number;
}

const cleanups: Array<() => Promise<void>> = [];

/** Runs and forgets every registered cleanup (call in afterEach/afterAll). */
export async function cleanUp(): Promise<void> {
  const pending = cleanups.splice(0);
  await Promise.all(pending.map((cleanup) => cleanup().catch(() => {})));
}

/** Starts `spillway-mcp <proxyArgs> -- <upstream>` as the SDK's stdio client would and connects. */
export async function connectThroughProxy({
  proxyArgs = [],
  upstream,
  env = {},
  clientOptions = {},
  setup,
}: {
  proxyArgs?: readonly string[];
  upstream: readonly string[];
  env?: Record<string, string>;
  clientOptions?: ClientOptions;
  setup?: (client: Client) => void;
}): Promise<ProxiedClient> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: cliArguments(upstream.length === 0 ? [...proxyArgs] : [...proxyArgs, '--', ...upstream]),
    cwd: packageDirectory,
    env: { ...(process.env as Record<string, string>), ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = new Client({ name: 'e2e-test', version: '1.0.0' }, clientOptions);
  setup?.(client);
  cleanups.push(() => client.close());
  await client.connect(transport);
  return { client, transport, stderr: () => stderr, pid: transport.pid as number };
}

/** A spawned process, killed at cleanup. Resolves its `exit` with the code. */
export function spawnTracked(
  command: string,
  args: readonly string[],
  options: { env?: Record<string, string>; cwd?: string } = {},
) {
  const child = spawn(command, [...args], {
    cwd: options.cwd ?? packageDirectory,
    env: { ...process.env, ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await Promise.race([exited, delay(5000)]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });
  return { child, exited, stdout: () => stdout, stderr: () => stderr };
}

/** Waits until `predicate()` is true, checking every 20 ms, at most `timeout` ms. */
export async function waitFor(
  predicate: () => boolean,
  { timeout = 20_000, what = 'condition' } = {},
): Promise<void> {
  const deadline = Date.now() + timeout;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(20);
  }
}

export function delay(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}

/** Process ids of the live descendants of `pid` (Linux /proc). */
export function descendantsOf(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] === 'Z') continue;
      parents.set(Number(entry), Number(fields[1]));
    } catch {
      // the process ended while we looked
    }
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const current = queue.shift() as number;
    for (const [child, parent] of parents) {
      if (parent === current) {
        found.push(child);
        queue.push(child);
      }
    }
  }
  return found;
}

/**
 * Process ids of the live upstream servers under `pid`: descendants whose command line names one of
 * the servers the tests start (not tsx's esbuild service, which runs the proxy from source).
 */
export function upstreamChildren(
  pid: number,
  pattern = /fixture-server|server-everything|server-filesystem|server-memory|conformance-server/,
): number[] {
  return descendantsOf(pid).filter((child) => {
    try {
      return pattern.test(readFileSync(`/proc/${child}/cmdline`, 'utf8'));
    } catch {
      return false;
    }
  });
}

/** Whether a process with this id is alive (and not a zombie). */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Starts the proxy with `--listen 0 --no-stdio` and connects an SDK client over Streamable HTTP. */
export async function connectOverHttp({
  proxyArgs = [],
  upstream,
  clientOptions = {},
  setup,
}: {
  proxyArgs?: readonly string[];
  upstream: readonly string[];
  clientOptions?: ClientOptions;
  setup?: (client: Client) => void;
}): Promise<{ client: Client; proxy: ReturnType<typeof spawnTracked>; url: string }> {
  const proxy = spawnTracked(
    process.execPath,
    cliArguments(['--listen', '0', '--no-stdio', ...proxyArgs, '--', ...upstream]),
  );
  await waitFor(() => /listening on (\S+)/.test(proxy.stderr()), { what: 'the proxy to listen' });
  const url = (/listening on (\S+)/.exec(proxy.stderr()) as RegExpExecArray)[1] as string;
  const client = new Client({ name: 'e2e-http-test', version: '1.0.0' }, clientOptions);
  setup?.(client);
  cleanups.push(() => client.close());
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return { client, proxy, url };
}

/** The child process type, re-exported for tests. */
export type { ChildProcess };
