/**
 * What the `recall` benches of every package share: the material (a 1 MB log, and text built to
 * trip backtracking engines), the inputs a model could send (normal and hostile), and the table
 * they print: each input's time and its ratio to a normal search measured in the same run. The goal
 * (issue 23): no input to `spillway_recall` above 50 ms.
 */

/** The goal for every input, in milliseconds. */
export const RECALL_GOAL_MS = 50;

/** A log of about `chars` characters, with an error now and then. */
export function recallBenchLog(chars: number): string {
  let text = '';
  for (let line = 0; text.length < chars; line++) {
    text += `2026-05-${String(1 + (line % 28)).padStart(2, '0')} line ${line}: ${line % 97 === 5 ? 'ERROR connection timeout on db-7f3a' : 'request served in 12 ms'}\n`;
  }
  return text;
}

/** The tool results of the bench conversation: a 1 MB log, 36 `a`s, and a 500,000-character line. */
export function recallBenchResults(): { id: string; text: string }[] {
  return [
    { id: 'big', text: recallBenchLog(1_000_000) },
    { id: 'aaa', text: `${'a'.repeat(36)}!` },
    { id: 'line', text: `${'a'.repeat(500_000)}\n${'ab'.repeat(100_000)}` },
  ];
}

/** Catastrophic patterns for a backtracking engine. */
export const CATASTROPHIC_PATTERNS = [
  '(a+)+$',
  '(a|aa)+$',
  '(a|a?)+b',
  '(.*a){20}',
  '^(a+)+b',
  '(x+x+)+y',
  '(a|b)*a(a|b){18}c',
];

/** Inputs a model could send, normal and hostile; `ref` names the 1 MB log. */
export function recallBenchInputs(ref: string) {
  return {
    normal: [
      { label: 'search "timeout" (text)', input: { search: 'timeout' } as unknown },
      { label: 'search /error.*db-\\w+/ (pattern)', input: { search: 'error.*db-\\w+' } as unknown },
      { label: 'read the log at 500,000', input: { ref, offset: 500_000 } as unknown },
    ],
    adversarial: [
      ...CATASTROPHIC_PATTERNS.map((search) => ({
        label: `search /${search}/`,
        input: { search } as unknown,
      })),
      { label: 'search of 1 MB', input: { search: 'a'.repeat(1_000_000) } as unknown },
      { label: 'search of 999 a then b', input: { search: `${'a'.repeat(999)}b` } as unknown },
      { label: 'offset 2^53-1', input: { ref, offset: 2 ** 53 - 1 } as unknown },
      { label: 'length 2^53-1 from 0', input: { ref, length: 2 ** 53 - 1 } as unknown },
      { label: 'ref of 1 MB', input: { ref: 'x'.repeat(1_000_000) } as unknown },
      { label: 'wrong types', input: { ref: 5, offset: 'far', search: [1] } as unknown },
      { label: 'not an object', input: 'give me everything' as unknown },
    ],
  };
}

/** Median milliseconds of `runs` calls of `call`, after one warm-up call. */
export async function medianMs(call: () => unknown, runs = 5): Promise<number> {
  await call();
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const start = performance.now();
    await call();
    times.push(performance.now() - start);
  }
  return times.sort((left, right) => left - right)[Math.floor(runs / 2)]!;
}

/** Times every input with `call` and prints the table, the worst hostile input and the goal. */
export async function runRecallBench(
  title: string,
  ref: string,
  call: (input: unknown) => unknown,
): Promise<void> {
  const { normal, adversarial } = recallBenchInputs(ref);
  const rows: { label: string; ms: number; adversarial: boolean }[] = [];
  for (const { label, input } of normal)
    rows.push({ label, ms: await medianMs(() => call(input)), adversarial: false });
  for (const { label, input } of adversarial) {
    rows.push({ label, ms: await medianMs(() => call(input)), adversarial: true });
  }
  const anchor = rows[0]!.ms;
  const worst = rows.filter((row) => row.adversarial).sort((left, right) => right.ms - left.ms)[0]!;
  console.log(`\n${title}`);
  console.table(
    Object.fromEntries(
      rows.map((row) => [
        row.label,
        {
          kind: row.adversarial ? 'adversarial' : 'normal',
          ms: row.ms.toFixed(2),
          'x normal search': (row.ms / anchor).toFixed(2),
        },
      ]),
    ),
  );
  console.log(
    `worst adversarial input: ${worst.label}, ${worst.ms.toFixed(2)} ms = ${(worst.ms / anchor).toFixed(2)}x the normal search (${rows[0]!.label}, ${anchor.toFixed(2)} ms); goal <= ${RECALL_GOAL_MS} ms: ${worst.ms <= RECALL_GOAL_MS ? 'met' : 'NOT met'}`,
  );
}
