/**
 * Structural equality for prompt values (plain objects, arrays, strings, numbers, bytes, URLs).
 * Strings the SDK copies by reference compare in constant time, so checking that a message is the
 * one seen on the previous call costs far less than converting and counting it again. Walks keys
 * with `for…in` (no key arrays allocated): this runs for every message of every call.
 */
export function deepEqual(left: unknown, right: unknown, depth = 0): boolean {
  if (left === right) return true;
  if (
    typeof left !== 'object' ||
    typeof right !== 'object' ||
    left === null ||
    right === null ||
    depth > 64
  ) {
    return false;
  }
  if (Array.isArray(left)) {
    if (!Array.isArray(right) || left.length !== right.length) return false;
    for (let index = 0; index < left.length; index++) {
      if (!deepEqual(left[index], right[index], depth + 1)) return false;
    }
    return true;
  }
  if (Array.isArray(right)) return false;
  const prototype = Object.getPrototypeOf(left);
  if (prototype !== Object.getPrototypeOf(right)) return false;
  if (prototype !== Object.prototype && prototype !== null) return specialEqual(left, right);
  const leftRecord = left as Record<string, unknown>;
  const rightRecord = right as Record<string, unknown>;
  let leftCount = 0;
  for (const key in leftRecord) {
    leftCount++;
    if (!Object.hasOwn(rightRecord, key) || !deepEqual(leftRecord[key], rightRecord[key], depth + 1))
      return false;
  }
  let rightCount = 0;
  for (const _key in rightRecord) rightCount++;
  return leftCount === rightCount;
}

function specialEqual(left: object, right: object): boolean {
  if (left instanceof Uint8Array && right instanceof Uint8Array) {
    if (left.length !== right.length) return false;
    for (let index = 0; index < left.length; index++) if (left[index] !== right[index]) return false;
    return true;
  }
  if (left instanceof URL && right instanceof URL) return left.href === right.href;
  if (left instanceof Date && right instanceof Date) return left.getTime() === right.getTime();
  return false;
}
