import type { Message } from './message';

/**
 * Message objects → the key their content is memoised under (token counts, content hashes). A
 * server deserializes every request, so each request carries new objects for old messages; the
 * conversation memo (`recognizeMessages`) gives each new object that holds exactly the content of
 * the previous request's message at its position (checked with `sameContent`) that message's key,
 * so every per-message memo keeps hitting. A message without an entry is its own key.
 *
 * The entries are strong and few: only the messages of the requests the conversation memo
 * remembers (the latest of each recent conversation, which it holds anyway) have one, and it
 * removes them when it forgets those messages. So a key outlives every await of the request that
 * made it (store reads, leases, background work), whatever other requests run in between.
 */
const keys = new Map<Message, object>();

/** The key `message`'s content is memoised under. */
export function contentKey(message: Message): object {
  return keys.get(message) ?? message;
}

/**
 * Sets (or with `undefined`, removes) the key of `message`. Only for the conversation memo: it
 * gives a key only to a message whose content it has checked.
 */
export function setContentKey(message: Message, key: object | undefined): void {
  if (key === undefined) keys.delete(message);
  else keys.set(message, key);
}
