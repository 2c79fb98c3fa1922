import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { estimateTokens } from '@spillway/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanUp, connectThroughProxy, filesystemBin } from './helpers';

type TextBlock = { type: string; text: string };

/** A 1 MB-ish text of numbered lines, with a non-BMP character on every 50th line. */
function makeText(lines: number): string {
  const parts: string[] = [];
  for (let line = 0; line < lines; line++) {
    parts.push(
      `line ${String(line).padStart(7, '0')}: ${line % 50 === 0 ? 'emoji 🦀 ' : ''}lorem ipsum dolor sit amet`,
    );
  }
  return `${parts.join('\n')}\nTHE END\n`;
}

/** Reads every page of a cut result through spillway_recall and joins them. */
async function readAllPages(client: Client, ref: string): Promise<string> {
  let offset = 0;
  let text = '';
  for (let page = 0; page < 10_000; page++) {
    const result = await client.callTool({ name: 'spillway_recall', arguments: { ref, offset } });
    const [, body, where] = result.content as TextBlock[];
    text += body?.text ?? '';
    const next = /"offset":(\d+)\}\]$/.exec(where?.text ?? '');
    if (next === null) return text;
    offset = Number(next[1]);
  }
  throw new Error('too many pages');
}

describe('server-filesystem through spillway-mcp', () => {
  const directory = mkdtempSync(join(tmpdir(), 'spillway-fs-'));
  const oneMegabyte = makeText(25_000);
  let client: Client;
  let stderr: () => string;

  beforeAll(async () => {
    writeFileSync(join(directory, 'one-megabyte.txt'), oneMegabyte);
    writeFileSync(join(directory, 'small.txt'), 'just a small file\n');
    for (let a = 0; a < 20; a++) {
      for (let b = 0; b < 20; b++) {
        mkdirSync(join(directory, 'tree', `branch-${a}`, `twig-${b}`), { recursive: true });
        writeFileSync(join(directory, 'tree', `branch-${a}`, `twig-${b}`, 'leaf.txt'), 'leaf');
      }
    }
    ({ client, stderr } = await connectThroughProxy({
      upstream: [process.execPath, filesystemBin, directory],
    }));
  });
  afterAll(async () => {
    await cleanUp();
    rmSync(directory, { recursive: true, force: true });
  });

  it('passes a small file through unchanged', async () => {
    const result = await client.callTool({
      name: 'read_text_file',
      arguments: { path: join(directory, 'small.txt') },
    });
    expect((result.content as TextBlock[])[0]?.text).toBe('just a small file\n');
  });

  it('cuts a 1 MB file to the token budget, head and tail intact, and its pages give back the exact file', async () => {
    const result = await client.callTool({
      name: 'read_text_file',
      arguments: { path: join(directory, 'one-megabyte.txt') },
    });
    const text = (result.content as TextBlock[])[0]?.text ?? '';
    expect(oneMegabyte.length).toBeGreaterThan(1_000_000);
    expect(estimateTokens(text)).toBeLessThanOrEqual(9000);
    expect(text.startsWith('line 0000000: emoji 🦀 lorem')).toBe(true);
    expect(text.endsWith('THE END\n')).toBe(true);
    const marker =
      /\[spillway-mcp: cut (\d+) of (\d+) characters .*?spillway_recall with \{"ref":"([A-Za-z0-9_-]{22})","offset":(\d+)\}; add "search"/.exec(
        text,
      );
    expect(marker).not.toBeNull();
    const [, removed, total, id, offset] = marker as unknown as [string, string, string, string, string];
    expect(Number(total)).toBe(oneMegabyte.length);
    expect(oneMegabyte.slice(0, Number(offset))).toBe(text.slice(0, Number(offset)));
    expect(Number(removed)).toBeGreaterThan(900_000);
    // The structured copy ({ content }) is held to the same budget and still validates (the SDK
    // client checks it against the tool's outputSchema).
    const structured = result.structuredContent as { content: string } | undefined;
    if (structured !== undefined)
      expect(estimateTokens(JSON.stringify(structured))).toBeLessThanOrEqual(9000);
    expect(await readAllPages(client, id)).toBe(oneMegabyte);
  });

  it('lists a large directory tree without breaking it', async () => {
    const result = await client.callTool({
      name: 'directory_tree',
      arguments: { path: join(directory, 'tree') },
    });
    const text = (result.content as TextBlock[]).map((block) => block.text).join('');
    expect(estimateTokens(text)).toBeLessThanOrEqual(9000);
    expect(text).toContain('branch-0');
  });

  it('survives a 50 MB result (over the SDK’s 10 MB stdio cap) and keeps its last line', async () => {
    const line = `${'0123456789abcdef'.repeat(64)}\n`;
    const big = `${line.repeat(50 * 1024)}LAST LINE OF FIFTY MEGABYTES\n`;
    writeFileSync(join(directory, 'fifty.txt'), big);
    const result = await client.callTool({
      name: 'read_text_file',
      arguments: { path: join(directory, 'fifty.txt') },
    });
    const text = (result.content as TextBlock[])[0]?.text ?? '';
    expect(big.length).toBeGreaterThan(50_000_000);
    expect(estimateTokens(text)).toBeLessThanOrEqual(9000);
    expect(text.endsWith('LAST LINE OF FIFTY MEGABYTES\n')).toBe(true);
    expect(text).toContain(`of ${big.length} characters`);
    // The file comes back twice (content and structuredContent): both copies do not fit the paging
    // store, and the structured one must not evict the text the marker points at.
    const [, id, offset] = /\{"ref":"([A-Za-z0-9_-]{22})","offset":(\d+)\}/.exec(text) as unknown as [
      string,
      string,
      string,
    ];
    const page = await client.callTool({
      name: 'spillway_recall',
      arguments: { ref: id, offset: Number(offset), length: 2000 },
    });
    expect(page.isError).toBeFalsy();
    expect((page.content as TextBlock[])[1]?.text).toBe(big.slice(Number(offset), Number(offset) + 2000));
    // Search finds the last line of the 50 MB text, with the offset to read it from. A search has
    // a time limit: on a loaded machine it may stop early and say where to go on, which a client
    // follows (a few times at most here).
    let searchArguments: Record<string, unknown> = { ref: id, search: 'last line of fifty' };
    let listing = '';
    for (let attempt = 0; attempt < 5; attempt++) {
      const found = await client.callTool({ name: 'spillway_recall', arguments: searchArguments });
      listing = (found.content as TextBlock[])[0]?.text ?? '';
      const goOn = /go on with spillway_recall (\{.*?\})\.\]/.exec(listing);
      if (goOn === null) break;
      searchArguments = JSON.parse(goOn[1]!) as Record<string, unknown>;
    }
    expect(listing).toContain(
      `{"ref":"${id}","offset":${big.indexOf('LAST LINE')}}: LAST LINE OF FIFTY MEGABYTES`,
    );
    // The connection is still good.
    const small = await client.callTool({
      name: 'read_text_file',
      arguments: { path: join(directory, 'small.txt') },
    });
    expect((small.content as TextBlock[])[0]?.text).toBe('just a small file\n');
    expect(stderr()).not.toContain('ReadBuffer exceeded');
  });
});
