import { StringDecoder } from 'node:string_decoder';

/** Options of {@link LineSplitter}. */
export interface LineSplitterOptions {
  /** Called with each complete line (without the `\n`, and without a trailing `\r`). */
  onLine: (line: string) => void;
  /** Called when a line grows past `maxLineBytes`; the line is skipped up to its end. */
  onOversized: (bytes: number) => void;
  /** Longest line accepted, in bytes. */
  maxLineBytes: number;
  /**
   * Called with a line of at least `largeLineBytes` bytes once it is joined and its pieces are
   * dropped, before `onLine` (the proxy collects garbage there).
   * @default none
   */
  onLargeLine?: () => void;
  /**
   * Lines from this many bytes on count as large.
   * @default 8388608 (8 MiB)
   */
  largeLineBytes?: number;
  /**
   * Called when a line grows to `streamLineBytes` without ending: the sink it returns gets the line's
   * pieces (those so far, then each as it arrives) instead of `onLine` getting the joined line, so a
   * long line is never held twice.
   * @default none (every line is joined)
   */
  onLongLine?: () => LineSink;
  /**
   * Lines from this many bytes on go to `onLongLine`'s sink.
   * @default 1048576 (1 MiB)
   */
  streamLineBytes?: number;
}

/** Where the pieces of one long line go (see `LineSplitterOptions.onLongLine`). */
export interface LineSink {
  /** The next piece of the line (decoded; a multi-byte character is never split). */
  write(piece: string): void;
  /** The line ended (its `\n` is not passed on; a `\r` before it is). */
  end(): void;
  /** The line was dropped (too long, or the stream was cleared). */
  abort(): void;
}

const NEWLINE = 0x0a;
const LARGE_LINE_BYTES = 8 * 1024 * 1024;
const STREAM_LINE_BYTES = 1024 * 1024;

/**
 * Splits a UTF-8 byte stream into newline-delimited lines in linear time. Each chunk is decoded as it
 * arrives (a `StringDecoder` carries multi-byte characters split across chunks) and the pieces of a
 * line are joined once, so a long line costs one pass and no second copy of its bytes (the SDK's
 * `ReadBuffer` re-copies and re-scans its whole buffer on every chunk: ~13 s for one 50 MB message).
 * With `onLongLine`, a line that grows long is not joined at all: its pieces go to a sink as they come.
 */
export class LineSplitter {
  private chunks: string[] = [];
  private bytes = 0;
  private readonly decoder = new StringDecoder('utf8');
  private skipping = false;
  /** The sink of the current line, once it is long. */
  private sink: LineSink | undefined;
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
      } else if (this.sink !== undefined) {
        const sink = this.sink;
        this.sink = undefined;
        const last = this.decoder.write(chunk.subarray(start, newline)) + this.decoder.end();
        if (last.length > 0) sink.write(last);
        sink.end();
      } else {
        // A newline byte never occurs inside a multi-byte UTF-8 sequence, so the decoder ends clean here.
        const last = this.decoder.write(chunk.subarray(start, newline)) + this.decoder.end();
        const parts = this.chunks;
        this.chunks = [];
        const large = this.bytes + newline - start >= (this.options.largeLineBytes ?? LARGE_LINE_BYTES);
        // Garbage of reading the line goes before the joined copy is made, the pieces after.
        if (large) this.options.onLargeLine?.();
        // One join: `joined + last` would be a rope that JSON.parse copies flat once more.
        if (parts.length > 0) parts.push(last);
        const line = parts.length === 0 ? last : parts.join('');
        parts.length = 0;
        if (large) this.options.onLargeLine?.();
        this.emit(line);
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
      this.sink?.abort();
      this.sink = undefined;
      this.chunks = [];
      this.bytes = 0;
      this.decoder.end();
      this.skipping = true;
      return;
    }
    const piece = this.decoder.write(rest);
    if (this.sink !== undefined) {
      if (piece.length > 0) this.sink.write(piece);
      return;
    }
    this.chunks.push(piece);
    const { onLongLine, streamLineBytes = STREAM_LINE_BYTES } = this.options;
    if (onLongLine !== undefined && this.bytes >= streamLineBytes) {
      this.sink = onLongLine();
      for (const part of this.chunks) if (part.length > 0) this.sink.write(part);
      this.chunks = [];
    }
  }

  /** Drops whatever partial line is buffered. */
  clear(): void {
    this.sink?.abort();
    this.sink = undefined;
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
