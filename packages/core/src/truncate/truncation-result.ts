import type { Message } from '../message/message';
import type { TruncationRecord } from './truncation-record';

/**
 * What a message-list function of the truncate stage returns: the new list (same length, same
 * order; unchanged messages are the very same objects) and a record of each change.
 */
export interface TruncationResult {
  /** The messages, with changed ones replaced by new objects. A new array; the input is untouched. */
  messages: Message[];
  /** One record per changed tool result or image, in message order. */
  records: TruncationRecord[];
}
