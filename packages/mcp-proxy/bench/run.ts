// pnpm bench: what a tools/call costs through spillway-mcp against the same call made directly, in
// one run (the direct call is the anchor); the proxy's peak memory on a 50 MB result (and on a 50 MB
// file read through server-filesystem, whose answer carries the text twice); and how long
// spillway_recall takes to answer adversarial input, against a plain search in the same run. Both
// sides use the SDK's own Client over stdio; the upstream is the e2e tests' fixture server (`echo`;
// `big`: numbered prose lines).
// BENCH_ONLY=latency|memory|recall runs one part.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
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
const only = process.env.BENCH_ONLY;
const runs = (part: string) => only === undefined || only === part;

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
    // The SDK client's own cap is 10 MB: the direct client must be allowed a large answer.
    maxBufferSize: 256 * 1024 * 1024,
  } as ConstructorParameters<typeof StdioClientTransport>[0]);
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(transport, { timeout: 120_000 });
  return { client, transport };
}

const direct = () => connect([fixture]);
const proxied = (upstream: string[] = [process.execPath, fixture], options: string[] = []) =>
  connect([...proxyArgs, ...options, '--', ...upstream]);

async function timeCalls(client: Client, name: string, args: Record<string, unknown>, count: number) {
  const times: number[] = [];
  for (let run = 0; run < count; run++) {
    const start = performance.now();
    await client.callTool({ name, arguments: args }, undefined, { timeout: 600_000 });
    times.push(performance.now() - start);
  }
  return times;
}

function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * fraction) - 1))] as number;
}

const median = (values: readonly number[]) => percentile(values, 0.5);

/** Peak resident memory (VmHWM) and current (VmRSS) of a process, in MB (Linux). */
function memory(pid: number): { peak: number; current: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const read = (key: string) =>
    Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN) / 1024;
  return { peak: read('VmHWM'), current: read('VmRSS') };
}

/** Resets a process's peak resident memory to its current size (Linux: `clear_refs` 5). */
function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** CPU time (user + system) a process has used so far, in milliseconds (Linux, clock ticks of 10 ms). */
function cpuTime(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const ms = (value: number) => `${value.toFixed(value < 10 ? 3 : 1)} ms`;
const signed = (value: number) => `${value >= 0 ? '+' : '−'}${ms(Math.abs(value))}`;
const verdict = (met: boolean) => (met ? 'met' : 'MISSED');

// ---------------------------------------------------------------------------------------------
// Latency: interleaved rounds, so that machine noise hits both alike; several repetitions.
// ---------------------------------------------------------------------------------------------

interface LatencyRow {
  label: string;
  direct: number[];
  proxy: number[];
  /** Per round: the proxy's p50 less the direct p50 of the calls made side by side in that round. */
  roundAdded: number[];
  /** Proxy CPU time per call, in ms (process ticks over the calls). */
  proxyCpu: number | undefined;
}

/**
 * `rounds` rounds, each of `perRound` direct calls and `perRound` proxied ones back to back (which
 * goes first alternates), after `warmup` calls on each side: machine noise hits both sides of a
 * round alike, and the median of the rounds' added p50 is robust to the rounds a burst spoils.
 */
async function measureLatency(
  label: string,
  name: string,
  args: Record<string, unknown>,
  { warmup, rounds, perRound }: { warmup: number; rounds: number; perRound: number },
): Promise<LatencyRow> {
  // Fresh connections per case, so that a case's results kept for recall do not weigh on the next.
  const anchor = await direct();
  const subject = await proxied();
  await timeCalls(anchor.client, name, args, warmup);
  await timeCalls(subject.client, name, args, warmup);
  const directTimes: number[] = [];
  const proxiedTimes: number[] = [];
  const roundAdded: number[] = [];
  const pid = subject.transport.pid as number;
  let cpu = 0;
  for (let round = 0; round < rounds; round++) {
    const timeProxied = async () => {
      const before = cpuTime(pid);
      const times = await timeCalls(subject.client, name, args, perRound);
      cpu += cpuTime(pid) - before;
      return times;
    };
    const directFirst = round % 2 === 0;
    const first = directFirst ? await timeCalls(anchor.client, name, args, perRound) : await timeProxied();
    const second = directFirst ? await timeProxied() : await timeCalls(anchor.client, name, args, perRound);
    const [d, p] = directFirst ? [first, second] : [second, first];
    directTimes.push(...d);
    proxiedTimes.push(...p);
    roundAdded.push(median(p) - median(d));
  }
  await anchor.client.close();
  await subject.client.close();
  return {
    label,
    direct: directTimes,
    proxy: proxiedTimes,
    roundAdded,
    proxyCpu: cpu / proxiedTimes.length,
  };
}

const latencyRows: string[][] = [];
let smallRounds: number[] = [];
let smallP95: number[] = [];
let smallCpu: number[] = [];
const SMALL = { warmup: 300, rounds: 40, perRound: 50 };
if (runs('latency')) {
  const REPETITIONS = 3;
  for (let repetition = 1; repetition <= REPETITIONS; repetition++) {
    const row = await measureLatency(
      `small result (echo), repetition ${repetition}`,
      'echo',
      { value: 'hi' },
      SMALL,
    );
    smallRounds = [...smallRounds, ...row.roundAdded];
    smallP95 = [...smallP95, percentile(row.proxy, 0.95) - percentile(row.direct, 0.95)];
    smallCpu = [...smallCpu, row.proxyCpu ?? Number.NaN];
    latencyRows.push(format(row));
  }
  latencyRows.push(
    format(
      await measureLatency('1 MB result', 'big', { chars: 1_000_000 }, { warmup: 3, rounds: 8, perRound: 5 }),
    ),
  );
}

function format({ label, direct: d, proxy: p, roundAdded, proxyCpu }: LatencyRow): string[] {
  return [
    `${label} (${roundAdded.length} rounds, ${d.length} calls each side)`,
    ms(median(d)),
    ms(median(p)),
    signed(median(roundAdded)),
    `${(median(p) / median(d)).toFixed(2)}×`,
    ms(percentile(d, 0.95)),
    ms(percentile(p, 0.95)),
    signed(percentile(p, 0.95) - percentile(d, 0.95)),
    proxyCpu === undefined ? '—' : ms(proxyCpu),
  ];
}

// ---------------------------------------------------------------------------------------------
// Memory: the proxy's peak resident size (VmHWM) during one call, above its size at rest.
// ---------------------------------------------------------------------------------------------

/** Peak memory of a fresh proxy on one call, above its resting size after a small warm-up call. */
async function peakMemory(upstream: string[], call: () => [string, Record<string, unknown>], warm: string) {
  const subject = await proxied(upstream);
  await subject.client.callTool({ name: warm, arguments: warm === 'echo' ? { value: 1 } : {} });
  const pid = subject.transport.pid as number;
  // The peak since start-up (loading modules) would hide a smaller one: reset it when Linux allows.
  const reset = resetPeak(pid);
  const resting = memory(pid).current;
  const [name, args] = call();
  const start = performance.now();
  await subject.client.callTool({ name, arguments: args }, undefined, { timeout: 600_000 });
  const elapsed = performance.now() - start;
  const { peak, current } = memory(pid);
  await subject.client.close();
  return { resting, peak, after: current, elapsed, reset };
}

const memoryLines: string[] = [];
if (runs('memory')) {
  const ratios: number[] = [];
  for (let repetition = 1; repetition <= 3; repetition++) {
    const fifty = await peakMemory([process.execPath, fixture], () => ['big', { chars: FIFTY_MB }], 'echo');
    const ratio = (fifty.peak - fifty.resting) / 50;
    ratios.push(ratio);
    memoryLines.push(
      `  repetition ${repetition}: ${fifty.resting.toFixed(0)} MB resting, peak ${fifty.peak.toFixed(0)} MB = ` +
        `+${(fifty.peak - fifty.resting).toFixed(0)} MB = ${ratio.toFixed(2)}× the result; ${fifty.after.toFixed(0)} MB after; ` +
        `call ${ms(fifty.elapsed)}${fifty.reset ? '' : ' (peak since start-up: could not reset it)'}`,
    );
  }
  memoryLines.unshift(
    `proxy peak memory, 50 MB result (${FIFTY_MB} characters, cut to the 9,000-token budget; the full text ` +
      `then stays in the recall store), above resting: worst ${Math.max(...ratios).toFixed(2)}× the result, goal ≤ 2× → ${verdict(Math.max(...ratios) <= 2)}`,
  );
  const directory = mkdtempSync(join(tmpdir(), 'spillway-bench-'));
  try {
    const line = `${'0123456789abcdef'.repeat(64)}\n`;
    writeFileSync(join(directory, 'fifty.txt'), line.repeat(50 * 1024));
    const file = await peakMemory(
      [process.execPath, filesystemServer, directory],
      () => ['read_text_file', { path: join(directory, 'fifty.txt') }],
      'list_allowed_directories',
    );
    memoryLines.push(
      `proxy peak memory, 50 MB file through server-filesystem (text twice: content + structuredContent, one 100 MB message): ` +
        `${file.resting.toFixed(0)} MB resting, peak ${file.peak.toFixed(0)} MB = ${((file.peak - file.resting) / 50).toFixed(2)}× the file ` +
        `(${((file.peak - file.resting) / 100).toFixed(2)}× the message) above resting, goal ≤ 2× the result (the message) → ` +
        `${verdict((file.peak - file.resting) / 100 <= 2)}; call ${ms(file.elapsed)}`,
    );
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Recall: adversarial input to spillway_recall, against a plain search of the same material.
// ---------------------------------------------------------------------------------------------

const recallLines: string[] = [];
if (runs('recall')) {
  const subject = await proxied();
  // Material that makes a backtracking engine stall on `(a+)+$`: runs of 36 `a`s, each ended by `!`.
  const material = Array.from({ length: 20_000 }, (_, index) => `${'a'.repeat(36)}! line ${index}`).join(
    '\n',
  );
  const cut = await subject.client.callTool({ name: 'echo', arguments: { value: material } });
  const marker = /\{"ref":"([\w-]+)"/.exec((cut.content as Array<{ text: string }>)[0]?.text ?? '');
  const ref = marker?.[1] ?? 'unknown';
  const inputs: Array<[string, unknown]> = [
    ['plain search (anchor)', { ref, search: 'line 19999\\b' }],
    ['plain read (anchor)', { ref, offset: 1000 }],
    ['1 MB search pattern', { ref, search: 'a'.repeat(1024 * 1024) }],
    ['1 MB ref', { ref: 'r'.repeat(1024 * 1024) }],
    ['offset 2^53 − 1', { ref, offset: Number.MAX_SAFE_INTEGER }],
    ['length 2^53 − 1', { ref, offset: 0, length: Number.MAX_SAFE_INTEGER }],
    ['wrong types', { ref: 42, search: ['x'], offset: 'far' }],
    ['not an object', 'read everything'],
    ['catastrophic pattern (a+)+$', { ref, search: '(a+)+$' }],
  ];
  const anchors: number[] = [];
  for (const [label, input] of inputs) {
    const times: number[] = [];
    let answer = '';
    for (let run = 0; run < 5; run++) {
      const start = performance.now();
      const result = await subject.client
        .callTool({ name: 'spillway_recall', arguments: input as Record<string, unknown> }, undefined, {
          timeout: 10_000,
        })
        .catch((error: unknown) => ({ content: [{ type: 'text', text: `no answer: ${String(error)}` }] }));
      times.push(performance.now() - start);
      answer =
        ((result.content as Array<{ text: string }>)[0]?.text ?? '').split('\n')[0]?.slice(0, 90) ?? '';
      if (answer.startsWith('no answer')) break;
    }
    if (label.includes('(anchor)')) anchors.push(median(times));
    recallLines.push(`${label} | ${ms(median(times))} | ${ms(Math.max(...times))} | ${answer}`);
  }
  recallLines.push(
    `(anchors: a plain search ${ms(anchors[0] ?? Number.NaN)}, a plain read ${ms(anchors[1] ?? Number.NaN)})`,
  );
  await subject.client.close();
}

// ---------------------------------------------------------------------------------------------

console.log(
  `load average at the end of the run: ${loadavg()
    .map((load) => load.toFixed(1))
    .join(', ')} (1, 5, 15 min; this machine has 2 cores shared with other jobs: latency is noisy)\n`,
);
if (runs('latency')) {
  console.log(
    'spillway-mcp: one tools/call through the proxy vs the same call direct, measured in this run (SDK client over stdio;\n' +
      'the proxy cuts the 1 MB result to its 9,000-token budget, the direct client gets it whole; proxy CPU: the\n' +
      "proxy process's user + system time per call, in 10 ms clock ticks over the calls)\n",
  );
  console.log(
    [
      'case',
      'direct p50',
      'proxy p50',
      'added p50 (median of rounds)',
      'proxy/direct p50',
      'direct p95',
      'proxy p95',
      'added p95',
      'proxy CPU per call',
    ].join(' | '),
  );
  console.log(Array.from({ length: 9 }, () => '---').join(' | '));
  for (const row of latencyRows) console.log(row.join(' | '));
  const added = median(smallRounds);
  console.log(
    `\nsmall call, added p50 = median over ${smallRounds.length} interleaved rounds (${SMALL.perRound} direct + ` +
      `${SMALL.perRound} proxied calls each, after ${SMALL.warmup} warm-up calls a side) of the round's proxy p50 − direct p50: ` +
      `${signed(added)} (spread: middle half ${signed(percentile(smallRounds, 0.25))} to ${signed(percentile(smallRounds, 0.75))}, ` +
      `all ${signed(Math.min(...smallRounds))} to ${signed(Math.max(...smallRounds))}), goal ≤ +0.5 ms → ${verdict(added <= 0.5)}; ` +
      `added p95 median ${signed(median(smallP95))}; proxy CPU per call median ${ms(median(smallCpu))}`,
  );
}
if (runs('memory')) console.log(`\n${memoryLines.join('\n')}`);
if (runs('recall')) {
  console.log(
    '\nspillway_recall through the proxy, adversarial input (material: a 1 MB result cut by the proxy, runs of 36 `a`s; 5 calls each, ' +
      'timeout 10 s; issue 23 asks ≤ 50 ms and a one-line error)\n',
  );
  console.log('input | p50 | max | first line of the answer');
  console.log('--- | --- | --- | ---');
  for (const line of recallLines) console.log(line);
}
