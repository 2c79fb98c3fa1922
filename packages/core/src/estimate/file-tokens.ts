import type { FilePart } from '../message/message';
import { base64ByteLength, decodeBase64Prefix, parseDataUrl } from './decode-base64';
import { estimateTextTokens } from './estimate-text-tokens';

/** Options of `fileTokens`. */
export interface FileTokensOptions {
  /**
   * Counts the tokens of text files' contents.
   * @default estimateTextTokens
   */
  countText?: (text: string) => number;
}

/**
 * Tokens per PDF page: providers send each page as extracted text (typically 1,500–3,000 tokens
 * on Anthropic) plus, on some, a page image.
 */
const PDF_TOKENS_PER_PAGE = 2000;
/** PDF bytes per page, when the page count cannot be read from the file. */
const PDF_BYTES_PER_PAGE = 50_000;
/**
 * Bytes per token for other binary files (audio, video, …): 32 tokens per second of audio
 * (Gemini's rate) at 128 kbit/s is one token per 500 bytes.
 */
const BINARY_BYTES_PER_TOKEN = 500;
/** Tokens for a file whose content and size are unknown (a remote URL): one PDF page. */
const UNKNOWN_FILE_TOKENS = PDF_TOKENS_PER_PAGE;

const textMediaType =
  /^(text\/|application\/(json|xml|javascript|x-ndjson|yaml|x-yaml|toml|sql|csv|graphql)|.*\+(json|xml)$)/i;

/** What a file's contents are, read once per part. */
type FileContent =
  | { kind: 'text'; text: string }
  | { kind: 'pdf'; pages: number }
  | { kind: 'binary'; bytes: number };

const memo = new WeakMap<FilePart, FileContent | null>();

/** Counts PDF page objects (`/Type /Page`, not `/Pages`) in the raw bytes; 0 when none is visible. */
function countPdfPages(bytes: Uint8Array): number {
  let pages = 0;
  const end = bytes.length - 10;
  for (let index = 0; index < end; index++) {
    // "/Type" then optional whitespace then "/Page" not followed by "s".
    if (bytes[index] !== 0x2f || bytes[index + 1] !== 0x54 || bytes[index + 2] !== 0x79) continue;
    if (bytes[index + 3] !== 0x70 || bytes[index + 4] !== 0x65) continue;
    let cursor = index + 5;
    while (
      cursor < bytes.length &&
      (bytes[cursor] === 0x20 || bytes[cursor] === 0x0a || bytes[cursor] === 0x0d)
    ) {
      cursor++;
    }
    if (
      bytes[cursor] === 0x2f &&
      bytes[cursor + 1] === 0x50 &&
      bytes[cursor + 2] === 0x61 &&
      bytes[cursor + 3] === 0x67 &&
      bytes[cursor + 4] === 0x65 &&
      bytes[cursor + 5] !== 0x73
    ) {
      pages++;
    }
  }
  return pages;
}

function describe(
  mediaType: string | undefined,
  base64: string | undefined,
  bytes: Uint8Array | undefined,
): FileContent {
  const isPdf = mediaType?.toLowerCase() === 'application/pdf';
  const isText = mediaType !== undefined && textMediaType.test(mediaType);
  if (isText || isPdf) {
    const decoded = bytes ?? (base64 === undefined ? undefined : decodeBase64Prefix(base64));
    if (decoded !== undefined) {
      if (isText) return { kind: 'text', text: new TextDecoder().decode(decoded) };
      const pages = countPdfPages(decoded) || Math.max(1, Math.ceil(decoded.length / PDF_BYTES_PER_PAGE));
      return { kind: 'pdf', pages };
    }
  }
  const byteLength = bytes?.length ?? (base64 === undefined ? 0 : base64ByteLength(base64));
  if (isPdf) return { kind: 'pdf', pages: Math.max(1, Math.ceil(byteLength / PDF_BYTES_PER_PAGE)) };
  return { kind: 'binary', bytes: byteLength };
}

function read(file: FilePart): FileContent | undefined {
  const { data, url, mediaType } = file;
  if (data instanceof Uint8Array) return describe(mediaType, undefined, data);
  if (typeof data === 'string' && data.length > 0) {
    const dataUrl = parseDataUrl(data);
    if (dataUrl === undefined) return describe(mediaType, data, undefined);
    return describe(mediaType ?? dataUrl.mediaType, dataUrl.base64, dataUrl.bytes);
  }
  if (typeof url === 'string') {
    const dataUrl = parseDataUrl(url);
    if (dataUrl !== undefined) return describe(mediaType ?? dataUrl.mediaType, dataUrl.base64, dataUrl.bytes);
  }
  return undefined;
}

/**
 * Tokens a non-image file costs the model, by a documented rule (providers do not publish exact
 * formulas for files):
 *
 * - text files (`text/*`, JSON, XML, YAML, CSV, JavaScript…) with inline data: their decoded text,
 *   counted with `countText`;
 * - PDFs: 2,000 tokens per page; pages are counted from the file's page objects, or estimated at
 *   one per 50 KB when they are not visible (compressed object streams);
 * - other inline files (audio, video, archives): one token per 500 bytes (≈ 32 tokens per second
 *   of 128 kbit/s audio);
 * - files known only by a remote URL: 2,000 (one PDF page).
 *
 * Never throws; what is read from the data is memoised per part object.
 */
export function fileTokens(
  file: FilePart,
  { countText = estimateTextTokens }: FileTokensOptions = {},
): number {
  let content = memo.get(file);
  if (content === undefined) {
    try {
      content = read(file) ?? null;
    } catch {
      content = null;
    }
    if (typeof file === 'object' && file !== null) memo.set(file, content);
  }
  if (content === null) return UNKNOWN_FILE_TOKENS;
  if (content.kind === 'text') return countText(content.text);
  if (content.kind === 'pdf') return content.pages * PDF_TOKENS_PER_PAGE;
  return Math.ceil(content.bytes / BINARY_BYTES_PER_TOKEN);
}
