import type { RequestMessage, RequestPart } from './bench-request';

/**
 * Gives each request message a key that is equal for two messages exactly when they would be
 * byte-identical on the wire (same role, same parts, same texts). Texts are interned, so keying a
 * request costs one map lookup per text, not a copy of it.
 */
export function createMessageKeys(): (message: RequestMessage) => string {
  const ids = new Map<string, number>();
  const id = (text: string) => {
    let value = ids.get(text);
    if (value === undefined) {
      value = ids.size;
      ids.set(text, value);
    }
    return value;
  };
  const part = (value: RequestPart): string => {
    switch (value.type) {
      case 'text':
        return `t${id(value.text)}`;
      case 'image':
        return `i${id(value.data)}`;
      case 'tool-call':
        return `c${id(value.toolCallId)}.${id(value.toolName)}.${id(value.input)}`;
      case 'tool-result':
        return `r${id(value.toolCallId)}.${id(value.toolName)}(${value.content.map(part).join(',')})`;
    }
  };
  return (message) => `${message.role}:${message.parts.map(part).join('|')}`;
}

/** Whether `previous` (a list of keys) is a prefix of `current`. */
export function isPrefix(previous: readonly string[], current: readonly string[]): boolean {
  if (previous.length > current.length) return false;
  for (let index = 0; index < previous.length; index++) if (previous[index] !== current[index]) return false;
  return true;
}

/** How many keys `previous` and `current` share from the start (the part a prompt cache can serve). */
export function commonPrefixLength(previous: readonly string[], current: readonly string[]): number {
  const end = Math.min(previous.length, current.length);
  let index = 0;
  while (index < end && previous[index] === current[index]) index++;
  return index;
}
