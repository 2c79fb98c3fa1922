/** A small deterministic pseudo-random source: the same seed gives the same sequence everywhere. */
export interface SeededRandom {
  /** A number in [0, 1). */
  next(): number;
  /** An integer in [min, max], both included. */
  integer(min: number, max: number): number;
  /** True with probability `probability`. */
  chance(probability: number): boolean;
  /** One element of a non-empty list. */
  pick<T>(list: readonly T[]): T;
  /** `length` characters from `alphabet` (lowercase letters and digits by default). */
  token(length: number, alphabet?: string): string;
  /** A copy of `list` in a random order. */
  shuffle<T>(list: readonly T[]): T[];
}

const ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A {@link SeededRandom} (mulberry32: 32 bits of state, fast, well mixed). */
export function seededRandom(seed: number): SeededRandom {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
  const integer = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    integer,
    chance: (probability) => next() < probability,
    pick: (list) => {
      if (list.length === 0) throw new Error('pick from an empty list');
      return list[Math.floor(next() * list.length)]!;
    },
    token: (length, alphabet = ALPHANUMERIC) => {
      let out = '';
      for (let index = 0; index < length; index++) out += alphabet[Math.floor(next() * alphabet.length)];
      return out;
    },
    shuffle: (list) => {
      const copy = [...list];
      for (let index = copy.length - 1; index > 0; index--) {
        const other = Math.floor(next() * (index + 1));
        [copy[index], copy[other]] = [copy[other]!, copy[index]!];
      }
      return copy;
    },
  };
}
