import { readFileSync, writeFileSync } from 'node:fs';

/** Options of {@link updateReadme}. */
export interface UpdateReadmeOptions {
  /** The README to rewrite. */
  file: string;
  /** The block's name: the text between `<!-- quality:<name>:start -->` and `<!-- quality:<name>:end -->`. */
  name: string;
  /** What goes between the markers (the command, where it ran, and the tables it printed). */
  body: string;
}

/**
 * Replaces one marked block of a README with freshly printed tables, so every table there is
 * exactly what the command printed above it produced (`--update-readme`).
 *
 * @throws {Error} when the file has no such block.
 */
export function updateReadme({ file, name, body }: UpdateReadmeOptions): void {
  const start = `<!-- quality:${name}:start -->`;
  const end = `<!-- quality:${name}:end -->`;
  const text = readFileSync(file, 'utf8');
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from === -1 || to < from) throw new Error(`${file} has no ${start} … ${end} block`);
  writeFileSync(file, `${text.slice(0, from + start.length)}\n${body.trim()}\n${text.slice(to)}`);
}
