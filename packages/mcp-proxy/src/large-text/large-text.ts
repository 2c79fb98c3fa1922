/**
 * A long text held as the pieces it arrived in, never joined while the proxy works on it: the stdio
 * transport reads a large upstream result's text into one (see `LargeLineParser`), so that a 50 MB
 * result is in memory once, not as the message line, the parsed string and the join of its chunks.
 * Its `length` and `slice` cost what the slice costs; `toString()` (and `toJSON()`, so that
 * serializing a message that carries one writes the text) joins the pieces once, after which the
 * one string stands in for them.
 */
export class LargeText {
  /** Texts made so far in this process (the outgoing side looks for them only once there are some). */
  static created = 0;

  /** Characters (UTF-16 code units) of the whole text. */
  readonly length: number;
  private pieces: readonly string[];
  /** `ends[i]`: where piece `i` ends in the whole text. */
  private ends: readonly number[];

  constructor(pieces: readonly string[]) {
    const ends: number[] = [];
    let length = 0;
    for (const piece of pieces) {
      length += piece.length;
      ends.push(length);
    }
    this.pieces = pieces;
    this.ends = ends;
    this.length = length;
    LargeText.created++;
  }

  /** The texts (strings or large texts) one after the other, as one large text; nothing is copied. */
  static concat(parts: readonly (string | LargeText)[]): LargeText {
    return new LargeText(parts.flatMap((part) => (typeof part === 'string' ? [part] : part.pieces)));
  }

  /**
   * The characters from `start` to `end` (exclusive), like `String.prototype.slice` with
   * non-negative bounds (clamped to the text); touches only the pieces the slice spans.
   */
  slice(start = 0, end = this.length): string {
    const from = Math.max(0, Math.min(this.length, Math.floor(start)));
    const to = Math.max(from, Math.min(this.length, Math.floor(end)));
    if (from === to) return '';
    const parts: string[] = [];
    for (let index = this.pieceAt(from); index < this.pieces.length; index++) {
      const pieceStart = index === 0 ? 0 : (this.ends[index - 1] as number);
      if (pieceStart >= to) break;
      const piece = this.pieces[index] as string;
      parts.push(piece.slice(Math.max(0, from - pieceStart), Math.min(piece.length, to - pieceStart)));
    }
    return parts.length === 1 ? (parts[0] as string) : parts.join('');
  }

  /** The whole text as one string (joined once; the pieces then give way to it). */
  toString(): string {
    if (this.pieces.length !== 1) {
      this.pieces = [this.pieces.join('')];
      this.ends = [this.length];
    }
    return this.pieces[0] ?? '';
  }

  /** The pieces the text is held in, in order (one string once it was joined). */
  parts(): readonly string[] {
    return this.pieces;
  }

  /** `JSON.stringify` writes the whole text. */
  toJSON(): string {
    return this.toString();
  }

  /** Whether `value` is a large text. */
  static isInstance(value: unknown): value is LargeText {
    return value instanceof LargeText;
  }

  /** The index of the piece holding character `offset` (binary search over the piece ends). */
  private pieceAt(offset: number): number {
    let low = 0;
    let high = this.ends.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((this.ends[middle] as number) > offset) high = middle;
      else low = middle + 1;
    }
    return low;
  }
}

/** A text as the proxy's truncation sees it: a string, or a large text that arrived in pieces. */
export type TextValue = string | LargeText;
