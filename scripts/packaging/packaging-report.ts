/** When the run started (ms since epoch). */
export const started = Date.now();
/** What passed and failed so far. */
export const tally = { passed: 0, failures: [] as string[] };

export function log(line: string): void {
  console.log(line.startsWith('==') ? `${line} [${((Date.now() - started) / 1000).toFixed(0)} s]` : line);
}

export function pass(what: string): void {
  tally.passed++;
  log(`  ok    ${what}`);
}

export function fail(what: string, detail = ''): void {
  tally.failures.push(what);
  log(`  FAIL  ${what}${detail ? `\n${detail.replace(/^/gm, '        ')}` : ''}`);
}

export function check(what: string, problems: string[]): void {
  if (problems.length === 0) pass(what);
  else fail(what, problems.join('\n'));
}
