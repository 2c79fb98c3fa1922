/**
 * Claude Code warns when one MCP tool result is larger than 10,000 tokens and refuses results over
 * 25,000 (`MAX_MCP_OUTPUT_TOKENS`). The proxy's default budget, 9,000 tokens, stays under the warning
 * with room for the difference between this estimate and Claude's tokenizer (~10%) and for the
 * marker, so a truncated result never trips the warning and is far from the hard limit; the rest of
 * the result stays one `spillway_recall` call away.
 */
export const DEFAULT_MAX_RESULT_TOKENS = 9_000;

/** Share of the kept text given to the head of a cut result; the tail gets the rest. */
export const DEFAULT_HEAD_RATIO = 0.6;

/** Inline images, audio and blobs of one result, in decoded bytes, kept before placeholders start. */
export const DEFAULT_MAX_MEDIA_BYTES = 1024 * 1024;

/**
 * What happens to inline images, audio and resource blobs beyond `maxMediaBytes`:
 * `'placeholder'` replaces each with a one-line text (media type, dimensions, size);
 * `'keep'` passes all media through untouched.
 */
export type MediaPolicy = 'placeholder' | 'keep';

/** Budgets for one tool's results (or for resources, or prompts); every field overrides the proxy-wide value. */
export interface ToolTruncationOptions {
  /**
   * Token budget of one result's text (all text blocks share it; `structuredContent` has its own).
   * `Infinity` turns text truncation off for the tool.
   * @default the proxy's `maxResultTokens`
   */
  maxResultTokens?: number;
  /**
   * Decoded bytes of inline media kept per result.
   * @default the proxy's `maxMediaBytes`
   */
  maxMediaBytes?: number;
  /**
   * Head share of a cut text, 0 to 1.
   * @default the proxy's `headRatio`
   */
  headRatio?: number;
}

/** How `tools/call` results are shortened. */
export interface TruncationOptions {
  /**
   * Token budget of one tool result, estimated with `@spillway/core`'s `estimateTokens`. Text blocks
   * (and embedded text resources) share it, larger blocks giving up more; `structuredContent` is
   * held to the same budget separately. `Infinity` turns text truncation off.
   * @default 9000 (`DEFAULT_MAX_RESULT_TOKENS`: under Claude Code's 10,000-token warning)
   */
  maxResultTokens?: number;
  /**
   * Share (0 to 1) of the kept characters of a cut text that come from its head; the tail gets the
   * rest. The head usually orients (headers, first matches); the tail keeps the end (errors, totals).
   * @default 0.6
   */
  headRatio?: number;
  /**
   * Decoded bytes of inline images, audio and resource blobs kept per result, in order; the ones
   * beyond become placeholders (see `mediaPolicy`). Base64 is never cut.
   * @default 1048576 (1 MiB)
   */
  maxMediaBytes?: number;
  /**
   * What to do with media beyond `maxMediaBytes`.
   * @default 'placeholder'
   */
  mediaPolicy?: MediaPolicy;
  /**
   * Per-tool overrides, by the upstream tool's name, e.g. `{ read_file: { maxResultTokens: 20000 } }`.
   * @default {}
   */
  tools?: Readonly<Record<string, ToolTruncationOptions>>;
  /**
   * Budgets of `resources/read` results (their `contents` share them as a tool result's content
   * does); each field defaults to the proxy-wide value.
   * @default {}
   */
  resources?: Readonly<ToolTruncationOptions>;
  /**
   * Budgets of `prompts/get` results (the messages' contents share them); each field defaults to
   * the proxy-wide value.
   * @default {}
   */
  prompts?: Readonly<ToolTruncationOptions>;
  /**
   * Keep the full text of every cut block (in a bounded store, private to the session that produced
   * it) and add the `spillway_recall` tool, through which the model reads the rest by
   * `offset`/`length` or searches it.
   * @default true
   */
  paging?: boolean;
}

/** The budgets that apply to one tool, all fields resolved. */
export interface ToolBudget {
  readonly maxResultTokens: number;
  readonly maxMediaBytes: number;
  readonly headRatio: number;
  readonly mediaPolicy: MediaPolicy;
}
