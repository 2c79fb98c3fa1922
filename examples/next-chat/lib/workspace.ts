import { deflateSync } from 'node:zlib';

/**
 * The agent's world, generated deterministically: source files, web pages and screenshots (real
 * PNGs). The tools read from it, so a session looks the same on every run.
 */

/** A source file of about `chars` characters. */
export function sourceFile(path: string, chars = 3_000): string {
  const lines = [`// ${path}`];
  let length = lines[0]!.length;
  for (let line = 1; length < chars; line++) {
    const text = `export function handler${line}(request: Request): Response { return route(request, '${path}', ${line}); }`;
    lines.push(text);
    length += text.length + 1;
  }
  return lines.join('\n').slice(0, chars);
}

/** A web page of about `chars` characters. */
export function webPage(url: string, chars = 12_000): string {
  const parts = [`<html><head><title>${url}</title></head><body>`];
  let length = parts[0]!.length;
  for (let section = 1; length < chars; section++) {
    const text = `<section id="s${section}"><h2>Release 4.${section}</h2><p>The deploy pipeline now caches build layers; rollbacks take ${section % 9} minutes. See https://status.example.com/incidents/${section}.</p></section>`;
    parts.push(text);
    length += text.length + 1;
  }
  return `${parts.join('\n')}</body></html>`;
}

const crcTable = Array.from({ length: 256 }, (_, index) => {
  let value = index;
  for (let bit = 0; bit < 8; bit++) value = value & 1 ? 0xedb88320 ^ (value >>> 1) : value >>> 1;
  return value >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = crcTable[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A screenshot of a made-up dashboard as a real PNG (base64): a header bar, a sidebar and cards in
 * colours that depend on `seed`.
 */
export function screenshot(seed: number, width = 1280, height = 800): string {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const accent = [(seed * 67) % 200, (seed * 131) % 200, 180];
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    rows[row] = 0; // no filter
    for (let x = 0; x < width; x++) {
      const inHeader = y < 64;
      const inSidebar = x < 220;
      const inCard =
        !inHeader && !inSidebar && (x - 260) % 330 < 290 && (y - 100) % 220 < 180 && x > 260 && y > 100;
      const colour = inHeader
        ? accent
        : inSidebar
          ? [40, 44, 52]
          : inCard
            ? [255, 255, 255]
            : [236, 239, 244];
      rows.set(colour as number[], row + 1 + x * 3);
    }
  }
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', new Uint8Array()),
  ]);
  return png.toString('base64');
}
