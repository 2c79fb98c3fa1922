// pnpm bench: the latency a tools/call gains by going through spillway-mcp, and the proxy's peak
// memory on a 50 MB result. Both sides use the SDK's own Client over stdio; the upstream is the
// fixture server of the e2e tests (small results: `echo`; large ones: `big`, numbered prose lines).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const packageDirectory = fileURLToPath(new URL('../', import.meta.url));
const fixture = fileURLToPath(new URL('../test/fixtures/fixture-server.mjs', import.meta.url));
const cli = fileURLToPath(new URL('../src/cli.ts', import.meta.url));

async function connect(viaProxy: boolean): Promise<{ client: Client; transport: StdioClientTransport }> {
  const upstream = [fixture];
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: viaProxy
      ? ['--conditions=@spillway/source', '--import', 'tsx', cli, '--', process.execPath, ...upstream]
      : upstream,
    cwd: packageDirectory,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(transport, { timeout: 120_000 });
  return { client, transport };
}

async function timeCalls(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  runs: number,
): Promise<number[]> {
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const start = performance.now();
    await client.callTool({ name, arguments: args }, undefined, { timeout: 300_000 });
    times.push(performance.now() - start);
  }
  return times;
}

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] as number;
}

/** Peak resident memory (VmHWM) and current (VmRSS) of a process, in MB (Linux). */
function memory(pid: number): { peak: number; current: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const read = (key: string) =>
    Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN) / 1024;
  return { peak: read('VmHWM'), current: read('VmRSS') };
}

const direct = await connect(false);
const proxied = await connect(true);
const cases = [
  { label: 'small result (echo)', name: 'echo', args: { value: 'hello' }, warmup: 50, runs: 500 },
  { label: '1 MB result', name: 'big', args: { chars: 1_000_000 }, warmup: 3, runs: 30 },
];
const rows: string[][] = [];
for (const { label, name, args, warmup, runs } of cases) {
  await timeCalls(direct.client, name, args, warmup);
  await timeCalls(proxied.client, name, args, warmup);
  // Interleave the two so that machine noise hits both alike.
  const directTimes: number[] = [];
  const proxiedTimes: number[] = [];
  for (let round = 0; round < 5; round++) {
    directTimes.push(...(await timeCalls(direct.client, name, args, runs / 5)));
    proxiedTimes.push(...(await timeCalls(proxied.client, name, args, runs / 5)));
  }
  const directP50 = percentile(directTimes, 0.5);
  const proxiedP50 = percentile(proxiedTimes, 0.5);
  rows.push([
    label,
    `${directP50.toFixed(3)} ms`,
    `${proxiedP50.toFixed(3)} ms`,
    `${(proxiedP50 - directP50).toFixed(3)} ms`,
    `${(percentile(proxiedTimes, 0.95) - percentile(directTimes, 0.95)).toFixed(3)} ms`,
  ]);
}

const proxyPid = proxied.transport.pid as number;
const before = memory(proxyPid);
const fiftyMegabytes = 50 * 1024 * 1024;
const start = performance.now();
const result = await proxied.client.callTool(
  { name: 'big', arguments: { chars: fiftyMegabytes } },
  undefined,
  { timeout: 300_000 },
);
const fiftyTime = performance.now() - start;
const after = memory(proxyPid);
const returned = JSON.stringify(result).length;

console.log(
  'spillway-mcp: added latency of one tools/call (p50 over interleaved runs; the 1 MB result is cut to the 9,000-token budget by the proxy, delivered whole directly)\n',
);
console.log(['case', 'direct p50', 'via proxy p50', 'added p50', 'added p95'].join(' | '));
console.log(['---', '---', '---', '---', '---'].join(' | '));
for (const row of rows) console.log(row.join(' | '));
console.log(
  `\n50 MB result (${fiftyMegabytes} characters) through the proxy: ${fiftyTime.toFixed(0)} ms, ${returned} characters returned`,
);
console.log(
  `proxy memory: ${before.current.toFixed(0)} MB before, peak ${after.peak.toFixed(0)} MB ` +
    `(+${(after.peak - before.peak).toFixed(0)} MB over the previous peak = ${((after.peak - before.current) / 50).toFixed(1)}x the result's 50 MB above the resting size); ` +
    `the full text stays in the paging store (bounded by pageStoreMaxChars).`,
);
console.log('\ngoals: added p50 <= 1 ms (small), <= 5 ms (1 MB); memory a small multiple of the result.');

await direct.client.close();
await proxied.client.close();

// The same 50 MB as a file read through @modelcontextprotocol/server-filesystem, whose result
// carries the text twice (content and structuredContent): one 100 MB message.
const directory = mkdtempSync(join(tmpdir(), 'spillway-bench-'));
try {
  const line = `${'0123456789abcdef'.repeat(64)}\n`;
  writeFileSync(join(directory, 'fifty.txt'), line.repeat(50 * 1024));
  const filesystem = fileURLToPath(
    new URL('../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js', import.meta.url),
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [
      '--conditions=@spillway/source',
      '--import',
      'tsx',
      cli,
      '--',
      process.execPath,
      filesystem,
      directory,
    ],
    cwd: packageDirectory,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(transport, { timeout: 120_000 });
  await client.callTool({ name: 'list_allowed_directories', arguments: {} });
  const restingFilesystem = memory(transport.pid as number);
  const started = performance.now();
  await client.callTool(
    { name: 'read_text_file', arguments: { path: join(directory, 'fifty.txt') } },
    undefined,
    {
      timeout: 300_000,
    },
  );
  const elapsed = performance.now() - started;
  const peakFilesystem = memory(transport.pid as number);
  console.log(
    `50 MB file through server-filesystem (content + structuredContent, a 100 MB message): ${elapsed.toFixed(0)} ms; ` +
      `proxy ${restingFilesystem.current.toFixed(0)} MB resting, peak ${peakFilesystem.peak.toFixed(0)} MB ` +
      `(${((peakFilesystem.peak - restingFilesystem.current) / 50).toFixed(1)}x the file above resting)`,
  );
  await client.close();
} finally {
  rmSync(directory, { recursive: true, force: true });
}
