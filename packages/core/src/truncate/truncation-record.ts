/**
 * What a truncate-stage function did to one tool result or image. Plain data: the compactor turns
 * these into `truncation` events for UIs and logs.
 */
export interface TruncationRecord {
  /**
   * - `'tool-result'`: a tool result's text was shortened (storage cap or request-time reduction);
   * - `'image'`: an image (or file) was replaced by a text placeholder;
   * - `'superseded'`: a result was replaced by a note because a later call on the same target exists;
   * - `'duplicate'`: a result was replaced by a note because a later result of the same tool is identical.
   */
  kind: 'tool-result' | 'image' | 'superseded' | 'duplicate';
  /** Index of the changed message in the list (input and output have the same indexes). */
  messageIndex: number;
  /** The tool whose result was changed, or that returned the image; absent for images outside results. */
  toolName?: string;
  /** The id of the tool call whose result was changed; absent for images outside results. */
  toolCallId?: string;
  /**
   * Size before: for text, the result's text characters; for images and files, the length of the
   * inline data (base64 characters or bytes, 0 for URL-only images); for superseded and duplicate
   * results, the result's content size as counted by the structural reduction.
   */
  charsBefore: number;
  /** Size after: the characters of the shortened text, placeholder or note. */
  charsAfter: number;
}
