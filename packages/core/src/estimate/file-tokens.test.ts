import { describe, expect, it } from 'vitest';
import { estimateTextTokens } from './estimate-text-tokens';
import { fileTokens } from './file-tokens';
import { toBase64 } from './image-headers.fixture';

const encode = (text: string) => new TextEncoder().encode(text);

/** A small but structurally real PDF with `pages` page objects. */
function pdf(pages: number): Uint8Array {
  const objects = Array.from(
    { length: pages },
    (_, index) => `${index + 3} 0 obj\n<< /Type /Page /Parent 2 0 R >>\nendobj\n`,
  );
  return encode(
    `%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Count ${pages} >>\nendobj\n${objects.join('')}%%EOF\n`,
  );
}

describe('fileTokens', () => {
  it('counts text files by their decoded text', () => {
    const text = 'name,age\nAda,36\nGrace,45\n';
    expect(fileTokens({ type: 'file', mediaType: 'text/csv', data: toBase64(encode(text)) })).toBe(
      estimateTextTokens(text),
    );
    expect(fileTokens({ type: 'file', mediaType: 'application/json', data: encode('{"a":1}') })).toBe(
      estimateTextTokens('{"a":1}'),
    );
    expect(fileTokens({ type: 'file', url: `data:text/markdown,${encodeURIComponent('# Title')}` })).toBe(
      estimateTextTokens('# Title'),
    );
    expect(
      fileTokens(
        { type: 'file', mediaType: 'text/plain', data: encode('hello') },
        { countText: (t) => t.length },
      ),
    ).toBe(5);
  });

  it('counts PDFs at 2,000 tokens per page object', () => {
    expect(fileTokens({ type: 'file', mediaType: 'application/pdf', data: pdf(3) })).toBe(6000);
    expect(fileTokens({ type: 'file', mediaType: 'application/pdf', data: toBase64(pdf(1)) })).toBe(2000);
  });

  it('estimates PDF pages from size when no page object is visible', () => {
    const compressed = new Uint8Array(120_000).fill(0x41);
    expect(fileTokens({ type: 'file', mediaType: 'application/pdf', data: compressed })).toBe(3 * 2000);
  });

  it('counts other files by size, and remote files as one page', () => {
    expect(fileTokens({ type: 'file', mediaType: 'audio/mpeg', data: new Uint8Array(160_000) })).toBe(320);
    expect(fileTokens({ type: 'file', mediaType: 'audio/wav', data: toBase64(new Uint8Array(1000)) })).toBe(
      2,
    );
    expect(
      fileTokens({ type: 'file', mediaType: 'application/pdf', url: 'https://example.com/report.pdf' }),
    ).toBe(2000);
    expect(fileTokens({ type: 'file' })).toBe(2000);
  });
});
