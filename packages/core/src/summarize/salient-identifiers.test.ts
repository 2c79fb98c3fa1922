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
});
