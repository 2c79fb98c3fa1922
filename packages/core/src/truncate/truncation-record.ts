/**
 * What a truncate-stage function did to one tool result or image. Plain data: the compactor turns
 * these into `truncation` events for UIs and logs.
 */
export interface TruncationRecord {
  /**
   * - `'tool-result'`: a tool result's text was shortened (storage cap or request-time reduction);
   * - `'image'`: an image (or file) was replaced by a text placeholder;
   * - `'superseded'`: a result was replaced by a note because a later call on the same target exists;
   * - `'duplicate'`: a result was replaced by a note because a later result of the same tool is identical;
   * - `'near-duplicate'`: a result was replaced by a note holding only its line diff against an
   *   earlier, very similar result of the same tool;
   * - `'collapsed'`: `messageCount` short messages from `messageIndex` on became one user message;
   * - `'folded'`: the tool steps of a finished turn (`messageCount` messages from `messageIndex` on)
   *   became one line per call at the head of one assistant message holding all its text.
   */
  kind: 'tool-result' | 'image' | 'superseded' | 'duplicate' | 'near-duplicate' | 'collapsed' | 'folded';
  /**
   * Index of the changed message in the input list (the output has the same indexes, except after a
   * `collapsed` record, which folds several messages into one).
   */
  messageIndex: number;
  /** For `collapsed` and `folded`: how many input messages, from `messageIndex` on, the one message stands in for. */
  messageCount?: number;
  /** The tool whose result was changed, or that returned the image; absent for images outside results. */
  toolName?: string;
  /** The id of the tool call whose result was changed; absent for images outside results. */
  toolCallId?: string;
  /**
   * Size before: for text, the result's text characters; for images and files, the length of the
   * inline data (base64 characters or bytes, 0 for URL-only images); for superseded and duplicate
   * results, the result's content size as counted by the structural reduction; for collapsed
   * messages, the characters of their text.
   */
  charsBefore: number;
  /** Size after: the characters of the shortened text, placeholder or note. */
  charsAfter: number;
}
