import { randomBytes } from 'node:crypto';
import { LargeText } from '../large-text/large-text';

/** Options of {@link LargeLineParser}. */
export interface LargeLineParserOptions {
  /**
   * A `"text"` string from this many characters on (as written, escapes included) is read into a
   * {@link LargeText} instead of a string.
   * @default 262144 (256 Ki characters)
   */
  minTextChars?: number;
  /**
   * Called once the rest of a line of at least 8 Mi characters (a large string that is not a text,
   * e.g. an image's data) is joined and its pieces dropped, before it is parsed (the transport
   * collects garbage there).
   * @default none
   */
  onLargeJoin?: () => void;
}

/** A joined line from this many characters on is large (see `onLargeJoin`). */
const LARGE_JOIN_CHARS = 8 * 1024 * 1024;

const QUOTE = '"';
const BACKSLASH = '\\';
const LETTER_U = 0x75;
/** Characters JSON allows between tokens. */
const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
/** Keys whose long string values are read into large texts: the text of content blocks, resources and prompt messages. */
const TEXT_KEY = 'text';
/** The key under which every long string value (at any depth) is read into a large text. */
const STRUCTURED_KEY = 'structuredContent';
/** A completed string this long at most is remembered as the key of the value that may follow. */
const MAX_KEY_CHARS = 24;

/**
 * Parses one long JSON line as it streams in, in pieces, without ever holding the whole line: every
 * long `"text"` value (the text of a tool result's content block, a resource's or a prompt
 * message's) is decoded piece by piece into a {@link LargeText}, and only the rest of the line, with
 * a short placeholder for each such text, is joined and given to `JSON.parse`, which then checks the
 * whole line's syntax as usual. A 50 MB result is thus in memory once (its decoded pieces) instead
 * of three times (the pieces, the joined line and the parsed string). Work is linear in the line.
 */
export class LargeLineParser {
  /** The line without its large texts, in pieces. */
  private skeleton: string[] = [];
  /** Decoded large texts, in order; the placeholder of the `n`-th says `n`. */
  private readonly extracted: LargeText[] = [];
  private readonly placeholderPrefix = `\u0000spillway-large-text:${randomBytes(6).toString('hex')}:`;
  private readonly minTextChars: number;
  private readonly onLargeJoin: (() => void) | undefined;
  private inString = false;
  /** Last character outside strings that is not whitespace (`"` after a string). */
  private lastToken = '';
  /** The last string read, when short (the key of the value that may follow). */
  private lastString: string | undefined;
  /** The open objects and arrays: whether each is an array and whether it is a `structuredContent`. */
  private readonly containers: { array: boolean; structured: boolean }[] = [];
  /** Open containers at or under a `structuredContent` key. */
  private structuredDepth = 0;
  /** Whether the string being read is the value of a `"text"` key, or a value under `structuredContent`. */
  private isTextValue = false;
  /** The string being read, as written (while it is short or not a text value). */
  private raw: string[] = [];
  private rawChars = 0;
  /** The string being read, decoded (once it is known to be a large text). */
  private decoded: string[] | undefined;
  /** The start of an escape sequence cut by the end of the previous piece. */
  private carry = '';

  constructor({ minTextChars = 262_144, onLargeJoin }: LargeLineParserOptions = {}) {
    this.minTextChars = minTextChars;
    this.onLargeJoin = onLargeJoin;
  }

  /** The first characters of the line outside its large texts, for error messages. */
  get preview(): string {
    const start = this.skeleton.slice(0, 8).join('');
    return start.length > 200 ? `${start.slice(0, 200)}…` : start;
  }

  /** Reads the next piece of the line. */
  write(piece: string): void {
    const text = this.carry === '' ? piece : this.carry + piece;
    this.carry = '';
    let position = 0;
    while (position < text.length) {
      if (!this.inString) {
        const quote = text.indexOf(QUOTE, position);
        const end = quote === -1 ? text.length : quote;
        if (end > position) this.outside(text, position, end);
        if (quote === -1) return;
        this.inString = true;
        this.isTextValue = this.lastToken === ':' && this.lastString === TEXT_KEY;
        if (!this.isTextValue && this.structuredDepth > 0) {
          // A value (after `:`, or an array item), not a key.
          const top = this.containers[this.containers.length - 1];
          this.isTextValue = this.lastToken === ':' || (top?.array === true && this.lastToken !== '"');
        }
        position = quote + 1;
        continue;
      }
      // Inside a string: find its closing quote, stepping over escape sequences.
      let quote = text.indexOf(QUOTE, position);
      let backslash = text.indexOf(BACKSLASH, position);
      while (backslash !== -1 && (quote === -1 || backslash < quote)) {
        const size = text.charCodeAt(backslash + 1) === LETTER_U ? 6 : 2;
        if (backslash + size > text.length) {
          // An escape cut by the end of the piece: it is read with the next one.
          this.carry = text.slice(backslash);
          if (backslash > position) this.content(text.slice(position, backslash));
          return;
        }
        const next = backslash + size;
        if (quote !== -1 && quote < next) quote = text.indexOf(QUOTE, next);
        backslash = text.indexOf(BACKSLASH, next);
      }
      if (quote === -1) {
        this.content(text.slice(position));
        return;
      }
      if (quote > position) this.content(text.slice(position, quote));
      this.closeString();
      position = quote + 1;
    }
  }

  /**
   * The whole line read: its value, each large text in place.
   * @throws {SyntaxError} when the line is not JSON.
   */
  end(): unknown {
    if (this.inString || this.carry !== '') throw new SyntaxError('Unterminated string in JSON');
    const json = this.skeleton.join('');
    this.skeleton = [json];
    if (json.length >= LARGE_JOIN_CHARS) this.onLargeJoin?.();
    const value: unknown = JSON.parse(json);
    if (this.extracted.length > 0) this.restore(value);
    return value;
  }

  /** Structure between strings: kept as is; its last token noted. */
  private outside(text: string, start: number, end: number): void {
    this.skeleton.push(text.slice(start, end));
    for (let index = start; index < end; index++) {
      const code = text.charCodeAt(index);
      if (WHITESPACE.has(code)) continue;
      const token = text[index] as string;
      if (token === '{' || token === '[') {
        const structured =
          this.structuredDepth > 0 || (this.lastToken === ':' && this.lastString === STRUCTURED_KEY);
        this.containers.push({ array: token === '[', structured });
        if (structured) this.structuredDepth++;
      } else if (token === '}' || token === ']') {
        if (this.containers.pop()?.structured === true) this.structuredDepth--;
      }
      this.lastToken = token;
    }
  }

  /** A stretch of the current string, as written (escape sequences whole). */
  private content(written: string): void {
    if (this.decoded !== undefined) {
      this.decoded.push(decode(written));
      return;
    }
    this.raw.push(written);
    this.rawChars += written.length;
    if (this.isTextValue && this.rawChars >= this.minTextChars) {
      // Long enough: from now on the string is decoded as it comes.
      this.decoded = this.raw.map(decode);
      this.raw = [];
    }
  }

  private closeString(): void {
    if (this.decoded !== undefined) {
      const index = this.extracted.length;
      this.extracted.push(new LargeText(this.decoded));
      this.skeleton.push(JSON.stringify(`${this.placeholderPrefix}${index}`));
      this.lastString = undefined;
    } else {
      this.skeleton.push(QUOTE, ...this.raw, QUOTE);
      this.lastString = this.rawChars <= MAX_KEY_CHARS ? this.raw.join('') : undefined;
    }
    this.inString = false;
    this.lastToken = QUOTE;
    this.raw = [];
    this.rawChars = 0;
    this.decoded = undefined;
  }

  /** Puts each large text where its placeholder is. */
  private restore(value: unknown): void {
    if (value === null || typeof value !== 'object') return;
    let left = this.extracted.length;
    const stack: object[] = [value];
    for (let node = stack.pop(); node !== undefined && left > 0; node = stack.pop()) {
      const record = node as Record<string, unknown>;
      for (const key of Array.isArray(node) ? node.keys() : Object.keys(node)) {
        const item = record[key as string];
        if (typeof item === 'string') {
          if (item.startsWith(this.placeholderPrefix)) {
            const text = this.extracted[Number(item.slice(this.placeholderPrefix.length))];
            if (text !== undefined) {
              record[key as string] = text;
              left--;
            }
          }
        } else if (item !== null && typeof item === 'object') stack.push(item);
      }
    }
  }
}

/** A stretch of a JSON string as written, decoded (escape sequences whole). */
function decode(written: string): string {
  return written.includes(BACKSLASH) ? (JSON.parse(`"${written}"`) as string) : written;
}
