// pnpm bench: what a tools/call costs through spillway-mcp against the same call made directly, in
// one run (the direct call is the anchor), for a small result, a 1 MB result and a 50 MB result;
// and the proxy's peak memory on a 50 MB result (and on a 50 MB file read through
// server-filesystem, whose answer carries the text twice). Both sides use the SDK's own Client over
// stdio; the upstream is the e2e tests' fixture server (`echo`; `big`: numbered prose lines).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const packageDirectory = fileURLToPath(new URL('../', import.meta.url));
const fixture = fileURLToPath(new URL('../test/fixtures/fixture-server.mjs', import.meta.url));
const cli = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
const filesystemServer = fileURLToPath(
  new URL('../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js', import.meta.url),
);
const proxyArgs = ['--conditions=@spillway/source', '--import', 'tsx', cli];
const FIFTY_MB = 50 * 1024 * 1024;

interface Connection {
  client: Client;
  transport: StdioClientTransport;
}

async function connect(args: string[]): Promise<Connection> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    cwd: packageDirectory,
    stderr: 'ignore',
    // The SDK client's own cap is 10 MB: the direct client must be allowed a 50 MB answer.
    maxBufferSize: 256 * 1024 * 1024,
  } as ConstructorParameters<typeof StdioClientTransport>[0]);
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(transport, { timeout: 120_000 });
  return { client, transport };
}

const direct = () => connect([fixture]);
const proxied = (upstream: string[] = [process.execPath, fixture]) =>
  connect([...proxyArgs, '--', ...upstream]);

async function timeCalls(client: Client, name: string, args: Record<string, unknown>, runs: number) {
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const start = performance.now();
    await client.callTool({ name, arguments: args }, undefined, { timeout: 600_000 });
    times.push(performance.now() - start);
  }
  return times;
}

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * fraction) - 1)] as number;
}

/** Peak resident memory (VmHWM) and current (VmRSS) of a process, in MB (Linux). */
function memory(pid: number): { peak: number; current: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const read = (key: string) =>
    Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN) / 1024;
  return { peak: read('VmHWM'), current: read('VmRSS') };
}

const ms = (value: number) => `${value.toFixed(value < 10 ? 3 : 1)} ms`;
const signed = (value: number) => `${value >= 0 ? '+' : '−'}${ms(Math.abs(value))}`;

const cases = [
  { label: 'small result (echo)', name: 'echo', args: { value: 'hello' }, warmup: 100, runs: 1000 },
  { label: '1 MB result', name: 'big', args: { chars: 1_000_000 }, warmup: 3, runs: 40 },
  // The direct SDK client reads a 50 MB line in quadratic time (~15–45 s): two calls each.
  { label: '50 MB result', name: 'big', args: { chars: FIFTY_MB }, warmup: 0, runs: 2 },
];

const rows: string[][] = [];
// BENCH_MEMORY_ONLY=1 skips the latency cases.
for (const { label, name, args, warmup, runs } of process.env.BENCH_MEMORY_ONLY === '1' ? [] : cases) {
  // Fresh connections per case, so that a case's results kept for recall do not weigh on the next.
  const anchor = await direct();
  const subject = await proxied();
  await timeCalls(anchor.client, name, args, warmup);
  await timeCalls(subject.client, name, args, warmup);
  // Interleaved in rounds, so that machine noise hits both alike.
  const directTimes: number[] = [];
  const proxiedTimes: number[] = [];
  const rounds = Math.min(5, runs);
  for (let round = 0; round < rounds; round++) {
    directTimes.push(...(await timeCalls(anchor.client, name, args, Math.ceil(runs / rounds))));
    proxiedTimes.push(...(await timeCalls(subject.client, name, args, Math.ceil(runs / rounds))));
  }
  const [d50, d99, p50, p99] = [
    percentile(directTimes, 0.5),
    percentile(directTimes, 0.99),
    percentile(proxiedTimes, 0.5),
    percentile(proxiedTimes, 0.99),
  ] as [number, number, number, number];
  rows.push([
    `${label} (${directTimes.length} calls each)`,
    ms(d50),
    ms(p50),
    signed(p50 - d50),
    `${(p50 / d50).toFixed(2)}×`,
    ms(d99),
    ms(p99),
    signed(p99 - d99),
  ]);
  await anchor.client.close();
  await subject.client.close();
}

/** Peak memory of a fresh proxy on one call, above its resting size after a small warm-up call. */
async function peakMemory(upstream: string[], call: () => [string, Record<string, unknown>], warm: string) {
  const subject = await proxied(upstream);
  await subject.client.callTool({ name: warm, arguments: warm === 'echo' ? { value: 1 } : {} });
  const pid = subject.transport.pid as number;
  const resting = memory(pid).current;
  const restingPeak = memory(pid).peak;
  const [name, args] = call();
  const start = performance.now();
  await subject.client.callTool({ name, arguments: args }, undefined, { timeout: 600_000 });
  const elapsed = performance.now() - start;
  const { peak, current } = memory(pid);
  await subject.client.close();
  return { resting, restingPeak, peak, after: current, elapsed };
}

const fifty = await peakMemory([process.execPath, fixture], () => ['big', { chars: FIFTY_MB }], 'echo');
const directory = mkdtempSync(join(tmpdir(), 'spillway-bench-'));
let file: Awaited<ReturnType<typeof peakMemory>>;
try {
  const line = `${'0123456789abcdef'.repeat(64)}\n`;
  writeFileSync(join(directory, 'fifty.txt'), line.repeat(50 * 1024));
  file = await peakMemory(
    [process.execPath, filesystemServer, directory],
    () => ['read_text_file', { path: join(directory, 'fifty.txt') }],
    'list_allowed_directories',
  );
} finally {
  rmSync(directory, { recursive: true, force: true });
}

const ratio = (measured: { resting: number; peak: number }) => (measured.peak - measured.resting) / 50;

console.log(
  'spillway-mcp: one tools/call through the proxy vs the same call direct, measured in this run (SDK client over stdio;\n' +
    'the proxy cuts the 1 MB and 50 MB results to its 9,000-token budget, the direct client gets them whole)\n',
);
console.log(
  [
    'case',
    'direct p50',
    'proxy p50',
    'added p50',
    'proxy/direct p50',
    'direct p99',
    'proxy p99',
    'added p99',
  ].join(' | '),
);
console.log(Array.from({ length: 8 }, () => '---').join(' | '));
for (const row of rows) console.log(row.join(' | '));
console.log(
  `\nproxy memory, 50 MB result (${FIFTY_MB} characters; the full text then stays in the recall store): ` +
    `${fifty.resting.toFixed(0)} MB resting, peak ${fifty.peak.toFixed(0)} MB = +${(fifty.peak - fifty.resting).toFixed(0)} MB = ` +
    `${ratio(fifty).toFixed(1)}× the result above resting (goal ≤ 2×); ${fifty.after.toFixed(0)} MB after; ${ms(fifty.elapsed)}`,
);
console.log(
  `proxy memory, 50 MB file through server-filesystem (text twice: content + structuredContent, one 100 MB message): ` +
    `${file.resting.toFixed(0)} MB resting, peak ${file.peak.toFixed(0)} MB = ${ratio(file).toFixed(1)}× the file above resting; ${ms(file.elapsed)}`,
);
console.log('\ngoals: added p50 ≤ 0.5 ms on a small call; peak memory ≤ 2× a 50 MB result above resting.');
