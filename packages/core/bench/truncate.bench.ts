/**
 * Truncation benchmark: `truncateToolResult` (head, the storage-time cap) and `truncateText`
 * (head-tail) on a 1 MB and a 10 MB realistic tool result, against anchors measured in the same
 * run: a plain `text.slice(0, 30000)` (the floor: no marker, no Unicode care; V8 returns a lazy view
 * of the input, no copy), the seed's naive cut `text.slice(0, kept) + marker` (one 30,000-character
 * copy once materialised) and the code-point approach `Array.from(text).slice(0, 30000).join('')`
 * (Unicode-safe by brute force).
 *
 * Every output is materialised (one character read from its middle, which makes V8 flatten a
 * concatenated string), so lazy string representations cannot flatter the figures.
 *
 * Run: `pnpm bench` (all benchmarks) or `pnpm tsx bench/truncate.bench.ts` from packages/core.
 */
import { pathToFileURL } from 'node:url';
import { truncateText } from '../src/truncate/truncate-text.ts';
import { TOOL_RESULT_MAX_CHARS, truncateToolResult } from '../src/truncate/truncate-tool-result.ts';

/** The goal per call on a 1 MB input (DESIGN §2.3: "well under 1 ms of work beyond the copy"). */
const GOAL_MS = 1;

/** A tool result as agents see them: log lines, JSON rows, paths, some non-ASCII and emoji. */
function realisticToolResult(targetChars: number): string {
  const templates = [
    (index: number) =>
      `2026-03-0${index % 9} 12:${String(index % 60).padStart(2, '0')}:07 INFO  worker-${index % 8} processed batch ${index} in ${(index * 7) % 991} ms`,
    (index: number) =>
      `{"id":${index},"path":"src/module_${index % 97}/index.ts","status":"ok","size":${(index * 131) % 65_536}}`,
    (index: number) =>
      `  at handler (/srv/app/node_modules/pkg-${index % 13}/dist/index.js:${index % 400}:${index % 80})`,
    (index: number) => `Résumé ${index}: données reçues — 東京 ${index % 50} 件, naïve café ✓ 😀`,
    (index: number) => `WARN  retrying request ${index} (attempt ${index % 4}) … réponse lente 🐢`,
  ];
  const lines: string[] = [];
  let length = 0;
  for (let index = 0; length < targetChars; index++) {
    const line = templates[index % templates.length]!(index);
    lines.push(line);
    length += line.length + 1;
  }
  return lines.join('\n').slice(0, targetChars);
}

let sink = 0;

/** Reads one character from the middle of `text`: forces V8 to materialise a concatenation. */
function consume(text: string): void {
  sink += text.charCodeAt(text.length >> 1) || 1;
}

/**
 * Median milliseconds per call. Calls run in batches long enough to time reliably (≥ 2 ms each);
 * after a warm-up, `samples` batches are timed and the median batch time is divided by its size.
 */
function measure(call: () => string, { samples = 31, warmupMs = 100 } = {}): number {
  const warmupEnd = performance.now() + warmupMs;
  let calls = 0;
  while (performance.now() < warmupEnd || calls < 3) {
    consume(call());
    calls++;
  }
  const perCall = warmupMs / calls;
  const batch = Math.max(1, Math.ceil(2 / perCall));
  const count = perCall > 50 ? 5 : samples;
  const times: number[] = [];
  for (let sample = 0; sample < count; sample++) {
    const start = performance.now();
    for (let index = 0; index < batch; index++) consume(call());
    times.push((performance.now() - start) / batch);
  }
  times.sort((left, right) => left - right);
  return times[times.length >> 1]!;
}

function formatMs(ms: number): string {
  if (ms >= 10) return `${ms.toFixed(1)} ms`;
  if (ms >= 0.1) return `${ms.toFixed(3)} ms`;
  return `${(ms * 1000).toFixed(2)} µs`;
}

function formatRatio(ratio: number): string {
  return ratio >= 10 ? `${ratio.toFixed(0)}x` : `${ratio.toFixed(2)}x`;
}

/** Measures and prints the truncation figures (called by `bench/run.ts`). */
export async function run(): Promise<void> {
  console.log('\n## truncate: tool results of 1 MB and 10 MB, cut to 30,000 characters\n');
  for (const megabytes of [1, 10]) {
    const text = realisticToolResult(megabytes * 1024 * 1024);
    consume(text);
    const slice = measure(() => text.slice(0, TOOL_RESULT_MAX_CHARS));
    const sliceMarker = measure(
      () =>
        `${text.slice(0, 29_920)}\n\n[... content truncated, showing first 29920 characters of ${text.length} total ...]`,
    );
    const codePoints = measure(() => Array.from(text).slice(0, TOOL_RESULT_MAX_CHARS).join(''));
    const head = measure(() => truncateToolResult(text));
    const headTail = measure(() =>
      truncateText(text, { maxChars: TOOL_RESULT_MAX_CHARS, mode: 'head-tail' }),
    );

    console.log(`${megabytes} MB input (${text.length} UTF-16 code units, ${text.split('\n').length} lines)`);
    const rows: [string, number][] = [
      ['anchor text.slice(0, 30000)', slice],
      ['anchor text.slice(0, kept) + marker', sliceMarker],
      ['anchor Array.from(text).slice(0, 30000)', codePoints],
      ['truncateToolResult (head, 30,000)', head],
      ['truncateText (head-tail, 30,000)', headTail],
    ];
    for (const [name, ms] of rows) {
      const ours = !name.startsWith('anchor');
      const verdict = ours ? `  goal ≤ ${GOAL_MS} ms: ${ms <= GOAL_MS ? 'PASS' : 'MISS'}` : '';
      const ratios = ours
        ? `  ${formatRatio(ms / sliceMarker)} the slice+marker anchor, ${formatRatio(codePoints / ms)} faster than Array.from`
        : '';
      console.log(`  ${name.padEnd(42)} ${formatMs(ms).padStart(10)} per call${verdict}${ratios}`);
    }
    console.log('');
  }
  if (sink === 0) console.log('(sink)');
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await run();
}
