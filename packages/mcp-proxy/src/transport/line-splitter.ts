import { StringDecoder } from 'node:string_decoder';

/** Options of {@link LineSplitter}. */
export interface LineSplitterOptions {
  /** Called with each complete line (without the `\n`, and without a trailing `\r`). */
  onLine: (line: string) => void;
  /** Called when a line grows past `maxLineBytes`; the line is skipped up to its end. */
  onOversized: (bytes: number) => void;
  /** Longest line accepted, in bytes. */
  maxLineBytes: number;
}

const NEWLINE = 0x0a;

/**
 * Splits a UTF-8 byte stream into newline-delimited lines in linear time. Each chunk is decoded as it
 * arrives (a `StringDecoder` carries multi-byte characters split across chunks) and the pieces of a
 * line are joined once, so a long line costs one pass and no second copy of its bytes (the SDK's
 * `ReadBuffer` re-copies and re-scans its whole buffer on every chunk: ~13 s for one 50 MB message).
 */
export class LineSplitter {
  private chunks: string[] = [];
  private bytes = 0;
  private readonly decoder = new StringDecoder('utf8');
  private skipping = false;
  private readonly options: LineSplitterOptions;

  constructor(options: LineSplitterOptions) {
    this.options = options;
  }

  /** Feeds the next chunk of the stream. */
  push(chunk: Buffer): void {
    let start = 0;
    for (
      let newline = chunk.indexOf(NEWLINE, start);
      newline !== -1;
      newline = chunk.indexOf(NEWLINE, start)
    ) {
      if (this.skipping) {
        this.skipping = false;
      } else {
        // A newline byte never occurs inside a multi-byte UTF-8 sequence, so the decoder ends clean here.
        const last = this.decoder.write(chunk.subarray(start, newline)) + this.decoder.end();
        const parts = this.chunks;
        this.chunks = [];
        this.emit(parts.length === 0 ? last : parts.join('') + last);
      }
      this.chunks = [];
      this.bytes = 0;
      start = newline + 1;
    }
    if (start >= chunk.length || this.skipping) return;
    const rest = chunk.subarray(start);
    this.bytes += rest.length;
    if (this.bytes > this.options.maxLineBytes) {
      this.options.onOversized(this.bytes);
      this.chunks = [];
      this.bytes = 0;
      this.decoder.end();
      this.skipping = true;
      return;
    }
    this.chunks.push(this.decoder.write(rest));
  }

  /** Drops whatever partial line is buffered. */
  clear(): void {
    this.chunks = [];
    this.bytes = 0;
    this.skipping = false;
    this.decoder.end();
  }

  private emit(line: string): void {
    const end = line.endsWith('\r') ? line.length - 1 : line.length;
    if (end === 0) return;
    this.options.onLine(end === line.length ? line : line.slice(0, end));
  }
}
