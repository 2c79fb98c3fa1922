import type { Message } from './message';

/** Deeper than this, values are not compared (and are reported as different). */
const MAX_DEPTH = 32;

/**
 * Whether two messages have exactly the same role and content: strings, numbers and booleans by
 * value, arrays item by item, plain objects key by key (in any key order), bytes byte by byte,
 * URLs by `href`, dates by time. Anything else counts as the same only when it is the same object.
 *
 * It is at least as strict as everything that reads a message's content (the token estimate and
 * the content hash), so a message found the same as an earlier one may borrow the earlier one's
 * count and hash. Comparing is much cheaper than hashing: the engine's strings compare natively.
 */
export function sameContent(first: Message, second: Message): boolean {
  if (first === second) return true;
  if (typeof first !== 'object' || typeof second !== 'object' || first === null || second === null)
    return false;
  return first.role === second.role && sameAt(first.content, second.content, 0);
}

/**
 * Whether two values hold exactly the same data: strings, numbers and booleans by value, arrays item
 * by item, plain objects key by key (in any key order; a key set to `undefined` is not a missing
 * key), bytes byte by byte, URLs by `href`, dates by time; anything else only when it is the same
 * object; values nested deeper than 32 levels count as different. The engine's own comparison of a
 * request with the previous one, for adapters that compare their framework's messages the same way
 * (a prompt rebuilt from the one before): plain JSON values compare natively, several times faster
 * than a generic deep-equality walk.
 */
export function sameValue(first: unknown, second: unknown): boolean {
  return sameAt(first, second, 0);
}

function sameAt(first: unknown, second: unknown, depth: number): boolean {
  if (first === second) return true;
  if (typeof first !== 'object' || typeof second !== 'object' || first === null || second === null)
    return false;
  if (depth >= MAX_DEPTH) return false;
  if (Array.isArray(first)) {
    if (!Array.isArray(second) || first.length !== second.length) return false;
    for (let index = 0; index < first.length; index++) {
      const left = first[index];
      const right = second[index];
      if (left !== right && !sameAt(left, right, depth + 1)) return false;
    }
    return true;
  }
  const prototype = Object.getPrototypeOf(first);
  const otherPrototype = Object.getPrototypeOf(second);
  if (isPlain(prototype) && isPlain(otherPrototype)) {
    const left = first as Record<string, unknown>;
    const right = second as Record<string, unknown>;
    // `for…in` (no key arrays allocated). Keys a polluted Object.prototype would add are seen, with
    // the same values, on both sides.
    let keys = 0;
    for (const key in left) {
      let value: unknown;
      let other: unknown;
      // The keys messages and their parts carry (the engine's and the AI SDK's), read by name (a
      // keyed read of another object's property is several times slower, and this compares every
      // part of every request).
      switch (key) {
        case 'type':
          value = left.type;
          other = right.type;
          break;
        case 'text':
          value = left.text;
          other = right.text;
          break;
        case 'content':
          value = left.content;
          other = right.content;
          break;
        case 'toolCallId':
          value = left.toolCallId;
          other = right.toolCallId;
          break;
        case 'toolName':
          value = left.toolName;
          other = right.toolName;
          break;
        case 'input':
          value = left.input;
          other = right.input;
          break;
        case 'output':
          value = left.output;
          other = right.output;
          break;
        case 'value':
          value = left.value;
          other = right.value;
          break;
        case 'role':
          value = left.role;
          other = right.role;
          break;
        default:
          value = left[key];
          other = right[key];
      }
      if (value === other) {
        if (other === undefined && !Object.hasOwn(right, key)) return false;
      } else if (!sameAt(value, other, depth + 1)) return false;
      keys++;
    }
    // Same number of keys, and every key of `left` in `right`: the same keys.
    for (const _key in right) keys--;
    return keys === 0;
  }
  if (prototype !== otherPrototype) return false;
  if (first instanceof Uint8Array) return sameBytes(first, second as Uint8Array);
  if (first instanceof ArrayBuffer) {
    return sameBytes(new Uint8Array(first), new Uint8Array(second as ArrayBuffer));
  }
  if (first instanceof URL) return first.href === (second as URL).href;
  if (first instanceof Date) return first.getTime() === (second as Date).getTime();
  return false;
}

/** Plain objects: literals, JSON, `Object.create(null)`. */
function isPlain(prototype: unknown): boolean {
  return prototype === Object.prototype || prototype === null;
}

function sameBytes(first: Uint8Array, second: Uint8Array): boolean {
  if (first.byteLength !== second.byteLength) return false;
  let index = 0;
  // Four bytes at a time where both views allow it (image data can be megabytes).
  if (first.byteOffset % 4 === 0 && second.byteOffset % 4 === 0) {
    const words = first.byteLength >>> 2;
    const left = new Int32Array(first.buffer, first.byteOffset, words);
    const right = new Int32Array(second.buffer, second.byteOffset, words);
    for (let word = 0; word < words; word++) if (left[word] !== right[word]) return false;
    index = words * 4;
  }
  for (; index < first.byteLength; index++) if (first[index] !== second[index]) return false;
  return true;
}
