import { describe, expect, it } from 'vitest';
import { salientIdentifiers } from './salient-identifiers';

describe('salientIdentifiers', () => {
  it('puts the identifiers of lines that report a problem first, then by kind and order', () => {
    const text = [
      'INFO started worker on port 8080 (v1.4.2)',
      'see https://status.example.com/incidents/42',
      'ERROR payment failed request_id=req_8f2k19x7 status=503 in /srv/app/pay.ts',
    ].join('\n');
    expect(salientIdentifiers(text)).toEqual([
      '/srv/app/pay.ts',
      'req_8f2k19x7',
      '503',
      'https://status.example.com/incidents/42',
      'v1.4.2',
      '8080',
    ]);
  });

  it('lets the kinds take turns, so that one kind cannot crowd out the rest', () => {
    const grep = [
      ...Array.from(
        { length: 15 },
        (_, line) => `src/ledger/part-${line}.ts:${line + 3}: import { plan } from './plan';`,
      ),
      "src/config/keys.ts:14: export const KEY = 'key-zky51z9e7k';",
      ...Array.from({ length: 5 }, (_, line) => `src/ledger/more-${line}.ts:2: // plan`),
    ].join('\n');
    const found = salientIdentifiers(grep);
    expect(found.length).toBeGreaterThan(8);
    expect(found.slice(0, 2)).toEqual(['src/ledger/part-0.ts', 'key-zky51z9e7k']);
    // An id after a lone slash is still an id; one inside a path is the path's.
    expect(salientIdentifiers('GET /job-123abc failed')).toEqual(['job-123abc']);
    // Alone, one kind still fills the list, in text order.
    const paths = Array.from({ length: 15 }, (_, line) => `see src/ledger/part-${line}.ts`).join('\n');
    const listed = salientIdentifiers(paths);
    expect(listed.length).toBeGreaterThan(8);
    expect(listed.every((path, line) => path.endsWith(`/ledger/part-${line}.ts`))).toBe(true);
  });

  it('puts the members of a series (ledger-1 … ledger-9) after every identifier that stands alone', () => {
    // A log names its instances on every line, its warnings included; the one request id is the news.
    const log = [
      ...Array.from({ length: 9 }, (_, line) => `WARN ledger-${line + 1} slow`),
      'INFO done request_id=req_e8w7ltyzbrz5',
    ].join('\n');
    const found = salientIdentifiers(log);
    expect(found[0]).toBe('req_e8w7ltyzbrz5');
    expect(found.slice(1)).toEqual(Array.from({ length: 9 }, (_, line) => `ledger-${line + 1}`));
    // Two of a stem are no series, and a long suffix (an opaque id) makes none.
    expect(salientIdentifiers('WARN ledger-1 slow\nWARN ledger-2 slow\nINFO req_e8w7ltyzbrz5')[0]).toBe(
      'ledger-1',
    );
    expect(
      salientIdentifiers('WARN req_aa81kx9 a\nWARN req_bb72jq1 b\nWARN req_cc63hz2 c\nINFO /srv/a/b.ts')[0],
    ).toBe('req_aa81kx9');
  });

  it('reads a problem word inside a name (note-error.ts, on_failure) as no problem', () => {
    // A grep whose file names say "error": those lines report nothing, so their paths do not go
    // first and crowd out the id below them.
    const grep = [
      ...Array.from(
        { length: 10 },
        (_, line) => `src/reporting/note-error-${line}.ts:${line + 3}: import { plan };`,
      ),
      'src/config/keys.ts:48:  auditTrailKey: "key-c1r69x80zu",',
    ].join('\n');
    expect(salientIdentifiers(grep).slice(0, 2)).toEqual(['src/reporting/note-error-0.ts', 'key-c1r69x80zu']);
    // The word alone still marks the line.
    expect(salientIdentifiers('see /srv/a/b.ts\nERROR: lost dep-7f3a9c2e')[0]).toBe('dep-7f3a9c2e');
    expect(salientIdentifiers('see /srv/a/b.ts\nrequest failed: dep-7f3a9c2e')[0]).toBe('dep-7f3a9c2e');
  });

  it('skips timestamps and log levels, and ranks bare decimals with the plain numbers', () => {
    const text = [
      '2026-03-02T10:41:07.114Z ERROR checkout failed trace_id=tr-91xk2ab0 amount=958.76 after 120ms',
      '2026-03-02T10:41:08.001Z INFO checkout retried with v2.3',
    ].join('\n');
    const found = salientIdentifiers(text);
    expect(found).not.toContain('2026-03-02T10');
    expect(found).not.toContain('ERROR');
    expect(found.indexOf('tr-91xk2ab0')).toBeLessThan(found.indexOf('958.76'));
    expect(found.indexOf('120ms')).toBeLessThan(found.indexOf('958.76'));
    expect(found).toContain('v2.3');
    expect(salientIdentifiers('open failed: ENOENT, then ECONNREFUSED')).toEqual(['ENOENT', 'ECONNREFUSED']);
  });

  it('keeps within its count and character bounds, and leaves out what it is told to', () => {
    const text = Array.from({ length: 40 }, (_, index) => `job-${index}a finished`).join('\n');
    expect(salientIdentifiers(text, { maxCount: 5 })).toHaveLength(5);
    expect(salientIdentifiers(text, { maxChars: 30 }).join(', ').length).toBeLessThanOrEqual(30);
    expect(salientIdentifiers(text, { exclude: new Set(['job-0a']) })[0]).toBe('job-1a');
    expect(salientIdentifiers('')).toEqual([]);
  });

  it('names what a reader could look up: no member accesses, encoded data or short fragments', () => {
    const code = [
      "import { queue } from './queue';",
      'const retries = auth.queue.size + auth.task.count;',
      'fetch("https://internal.example.com/ledger") // see docs/retry-policy.md and values.yaml',
    ].join('\n');
    const found = salientIdentifiers(code);
    expect(found).not.toContain('auth.queue');
    expect(found).not.toContain('auth.task');
    expect(found).toEqual(
      expect.arrayContaining(['https://internal.example.com/ledger', 'docs/retry-policy.md', 'values.yaml']),
    );
    // Endings that are also member names count only on a name that is plainly not a member access.
    const logs = salientIdentifiers('console.log(process.env.HOME); tail logs/server.log app-2.log');
    expect(logs).not.toContain('console.log');
    expect(logs).not.toContain('process.env');
    expect(logs).toEqual(expect.arrayContaining(['logs/server.log', 'app-2.log']));
    // Hosts keep their domain; base64 is not a path, nor is a two-letter fragment.
    expect(salientIdentifiers('connect to db-primary.internal and api.example.com')).toEqual(
      expect.arrayContaining(['db-primary.internal', 'api.example.com']),
    );
    const base64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB/vlJ4OwPg0TrWuIaKAYblq/8u25fdW8izSOUNS3+2D8x/8/ed';
    expect(salientIdentifiers(base64)).toEqual([]);
  });

  it('reads a long run of names joined by dots and slashes once, and still takes versions', () => {
    // The file-name pattern takes such a run whole (it once backtracked through it at every start).
    expect(salientIdentifiers(`${'ab/'.repeat(20_000)}x.1`)).toEqual([]);
    // E-mail addresses, ids and file names start only where a run of their characters starts (from
    // every word boundary of a long hyphenated run, as in base64url, each try read to its end).
    expect(salientIdentifiers('a-'.repeat(100_000))).toEqual([]);
    expect(salientIdentifiers(`${'a.'.repeat(100_000)} mail ops@example.com`)).toEqual(['ops@example.com']);
    expect(salientIdentifiers('bumped to v1.2.3 in build/out.js')).toEqual(['build/out.js', 'v1.2.3']);
    expect(salientIdentifiers('edit ./config.yaml and ../src/app/main.ts')).toEqual([
      '../src/app/main.ts',
      'config.yaml',
    ]);
  });

  it('lists the longer form of a name once (src/a/b.ts, not also /a/b.ts)', () => {
    const grep = ['/ledger/header.ts:12: retry()', 'src/ledger/header.ts:12: retry()'].join('\n');
    expect(salientIdentifiers(grep)).toEqual(['src/ledger/header.ts']);
  });

  it('lists plain numbers only when a text has few of them: a data table or a file of constants names none', () => {
    expect(salientIdentifiers('listening on port 48213 with 512 workers')).toEqual(['48213', '512']);
    const prices = Array.from(
      { length: 20 },
      (_, index) => `{"id":"ord-${index}x","amount":${100 + index}.25}`,
    );
    const found = salientIdentifiers(prices.join('\n'));
    expect(found.some((identifier) => /^\d/.test(identifier))).toBe(false);
    expect(found[0]).toBe('ord-0x');
    // On the lines that report a problem too: one status code is telling, a column of them is not.
    expect(salientIdentifiers('GET /v2/pay failed with 503 after 3 retries')).toContain('503');
    const failures = Array.from({ length: 10 }, (_, index) => `job ${1000 + index} failed`).join('\n');
    expect(salientIdentifiers(failures)).toEqual([]);
    // Numbers with a unit are not plain numbers.
    expect(
      salientIdentifiers(Array.from({ length: 10 }, (_, index) => `took ${index + 100}ms`).join('\n')),
    ).toHaveLength(10);
  });
});
