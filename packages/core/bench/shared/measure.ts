import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Small measuring and printing helpers shared by the benchmarks: medians, timed rounds and
 * plain-text tables.
 */

/** The median of a non-empty list of numbers. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((first, second) => first - second);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Options of `timeRounds`. */
export interface TimeRoundsOptions {
  /** Timed rounds; the result is their median. @default 5 */
  rounds?: number;
  /** Each round repeats `work` until at least this many milliseconds have passed. @default 300 */
  minimumMilliseconds?: number;
  /** Untimed calls of `work` before the first round (JIT warm-up). @default 2 */
  warmUpCalls?: number;
}

/**
 * Median time of one call of `work`, in milliseconds: every round calls it repeatedly for at least
 * `minimumMilliseconds` and divides the elapsed time by the number of calls.
 */
export function timeRounds(
  work: () => void,
  { rounds = 5, minimumMilliseconds = 300, warmUpCalls = 2 }: TimeRoundsOptions = {},
): number {
  for (let call = 0; call < warmUpCalls; call++) work();
  const perCall: number[] = [];
  for (let round = 0; round < rounds; round++) {
    let calls = 0;
    const start = performance.now();
    let elapsed = 0;
    do {
      work();
      calls++;
      elapsed = performance.now() - start;
    } while (elapsed < minimumMilliseconds);
    perCall.push(elapsed / calls);
  }
  return median(perCall);
}

/** One timed call: its wall-clock and CPU milliseconds, and when it started and ended. */
export interface TimedCall {
  wall: number;
  cpu: number;
  /** `performance.now()` at the start and at the end. */
  start: number;
  end: number;
}

/** Times one call of `call` (awaited): wall-clock and the process's CPU time. */
export async function timeCall(call: () => unknown): Promise<TimedCall> {
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  await call();
  const end = performance.now();
  const cpu = process.cpuUsage(cpuStart);
  return { wall: end - start, cpu: (cpu.user + cpu.system) / 1000, start, end };
}

/** Prints rows as a table with aligned columns; the first row is the header. */
export function printTable(rows: readonly (readonly string[])[]): void {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0)));
  const line = (row: readonly string[]) =>
    row
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join('  ');
  console.log(line(rows[0]!));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of rows.slice(1)) console.log(line(row));
}

/** `PASS` or `MISS`. */
export function verdict(passed: boolean): string {
  return passed ? 'PASS' : 'MISS';
}

/** Whether the module at `url` is the script Node was started with. */
export function isMainModule(url: string): boolean {
  const entry = process.argv[1];
  return entry !== undefined && url === pathToFileURL(resolve(entry)).href;
}

/**
 * The message counts a benchmark measures: `defaults`, or the comma-separated list in the
 * `BENCH_SIZES` environment variable (a quicker run of some sizes).
 */
export function benchSizes(defaults: readonly number[]): number[] {
  const listed = process.env.BENCH_SIZES?.split(',')
    .map((size) => Number(size.replaceAll('_', '')))
    .filter((size) => Number.isInteger(size) && size > 0);
  return listed === undefined || listed.length === 0 ? [...defaults] : listed;
}

let gc: ((options?: object) => void) | undefined;

/** How the heap is prepared before each timed call: `BENCH_GC`, `none` by default. */
const protocol = process.env.BENCH_GC ?? 'none';
if (!['none', 'settle', 'full'].includes(protocol)) {
  throw new Error(`BENCH_GC must be none, settle or full, got ${protocol}`);
}

/**
 * What runs between a timed call's untimed input (a parse of the request body) and the call.
 *
 * - `none` (the default): nothing, as in a server, which parses a request and prepares it at once.
 *   The parsed request is in the young generation, and a scavenge lands on whatever allocates
 *   next, the anchors alike (each of them also runs right after a parse of the same body).
 * - `settle`: two scavenges, which move the parsed request out of the young generation first. The
 *   call then runs on promoted objects: every new field or memo it writes into them passes the
 *   write barrier, which a server's fresh request does not (at 500 messages the fresh cases cost
 *   about 1.7× what they cost with `none`).
 * - `full`: a full mark-compact (`gc()`); the call after one runs with cold caches and concurrent
 *   sweeping. (On Node 20, `gc({ type: 'major' })` runs a scavenge, not a full collection, as
 *   `--trace-gc` shows: the protocol these benchmarks used before.)
 *
 * Node-only, like the benchmarks.
 */
export function beforeTimedCall(): void {
  if (protocol === 'none') return;
  if (gc === undefined) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as (options?: object) => void;
  }
  if (protocol === 'full') {
    gc();
  } else {
    gc({ type: 'minor' });
    gc({ type: 'minor' });
  }
}

/** Whether `beforeInput` shifts the heap's phase: `BENCH_PHASE`, `fixed` by default. */
const phase = process.env.BENCH_PHASE ?? 'fixed';
if (!['random', 'fixed'].includes(phase)) {
  throw new Error(`BENCH_PHASE must be random or fixed, got ${phase}`);
}

/** The young generation's size at most (V8's largest semi-space on 64-bit machines, 16 MB). */
const YOUNG_GENERATION_BYTES = 16 * 1024 * 1024;
/** Bytes of one garbage array below (64 elements of 8 bytes and a header). */
const GARBAGE_ARRAY_BYTES = 544;
let seed = 0x2f6b_1d3a;
/** Holds the last garbage array, so that the allocations cannot be optimized away. */
const sink: unknown[] = [];

/**
 * What runs before a timed call's untimed input is made (the parse of the request body).
 *
 * - `fixed` (the default): nothing. Every round then allocates the same amounts in the same order
 *   and the scavenges lock to one phase: the collection of a freshly parsed request (about 20 ms at
 *   10,000 messages) lands on the same case in every round, or in none, and the first rounds decide
 *   which. Two runs of the same code measured `prepare` on 10,000 fresh messages with a stored
 *   summary at 85.6 ms and at 8.3 ms (CPU time, median of 15); the column "less collector pauses"
 *   tells the call's own time apart.
 * - `random`: short-lived garbage of a random size, up to the young generation's, as a server's
 *   other requests leave between two requests of one conversation. A collection then lands on a
 *   call about as often as the call's own allocation fills the young generation; but the garbage
 *   also evicts the previous request's messages from the processor's caches, so `prepare` reads
 *   them cold (at 500 messages, 0.61 ms instead of 0.39 ms; the anchors, which read only the
 *   request just parsed, do not move).
 */
export function beforeInput(): void {
  if (phase === 'fixed') return;
  // xorshift32: the same sequence in every run.
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  const arrays = Math.floor(((seed >>> 0) / 2 ** 32) * (YOUNG_GENERATION_BYTES / GARBAGE_ARRAY_BYTES));
  for (let index = 0; index < arrays; index++) sink[0] = new Array(64).fill(index);
}

/** Messages each case processes, at least, in untimed warm-up rounds before its timed ones. */
const WARM_UP_MESSAGES = 25_000;

/**
 * Untimed rounds before the timed ones at `size` messages: at least 3, and enough for every case
 * to go through {@link WARM_UP_MESSAGES} messages (250 at 100 messages, 50 at 500). A few rounds
 * left the optimizing compiler unfinished at the first size measured: at 500 messages the first
 * ten calls took 0.9–2.4 ms and the later ones 0.6–0.8 ms, so the median moved with the order the
 * sizes ran in.
 */
export function warmUpRounds(size: number): number {
  return Math.max(3, Math.ceil(WARM_UP_MESSAGES / size));
}

/** The protocol of `beforeTimedCall`, for the benchmarks' printed notes. */
export const GC_PROTOCOL_NOTE = `${
  phase === 'random'
    ? 'before each input, garbage of a random size up to the young generation (BENCH_PHASE=random); '
    : 'nothing before each input (BENCH_PHASE=fixed); '
}${
  {
    none: 'each call right after an untimed parse of the request body, nothing in between (BENCH_GC=none)',
    settle:
      'each call after two scavenges that move the parsed input out of the young generation (BENCH_GC=settle)',
    full: 'each call after a full garbage collection (BENCH_GC=full)',
  }[protocol]
}`;
