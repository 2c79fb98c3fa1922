import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineSplitter } from './line-splitter';

describe('LineSplitter', () => {
  it('gives back the lines whatever the chunk boundaries (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }).filter((line) => !/[\r\n]/.test(line)),
          { maxLength: 30 },
        ),
        fc.array(fc.integer({ min: 1, max: 17 }), { minLength: 1 }),
        (lines, sizes) => {
          const bytes = Buffer.from(lines.map((line) => `${line}\r\n`).join(''), 'utf8');
          const seen: string[] = [];
          const splitter = new LineSplitter({
            maxLineBytes: 1 << 20,
            onLine: (line) => seen.push(line),
            onOversized: () => {},
          });
          let offset = 0;
          for (let index = 0; offset < bytes.length; index++) {
            const size = sizes[index % sizes.length] as number;
            splitter.push(bytes.subarray(offset, offset + size));
            offset += size;
          }
          expect(seen).toEqual(lines);
        },
      ),
    );
  });

  it('skips a line longer than the cap and carries on with the next', () => {
    const seen: string[] = [];
    const oversized: number[] = [];
    const splitter = new LineSplitter({
      maxLineBytes: 10,
      onLine: (line) => seen.push(line),
      onOversized: (bytes) => oversized.push(bytes),
    });
    splitter.push(Buffer.from('ok\nthis line is far too long'));
    splitter.push(Buffer.from(' and goes on\nnext\n'));
    expect(seen).toEqual(['ok', 'next']);
    expect(oversized.length).toBe(1);
  });

  it('tells about a large line before joining it and once its pieces are dropped, and only then', () => {
    const events: string[] = [];
    const splitter = new LineSplitter({
      maxLineBytes: 1 << 20,
      largeLineBytes: 20,
      onLine: (line) => events.push(`line ${line.length}`),
      onOversized: () => {},
      onLargeLine: () => events.push('large'),
    });
    splitter.push(Buffer.from('short\n0123456789'));
    splitter.push(Buffer.from('0123456789'));
    splitter.push(Buffer.from('0123456789\nok\n'));
    expect(events).toEqual(['line 5', 'large', 'large', 'line 30', 'line 2']);
  });
});
