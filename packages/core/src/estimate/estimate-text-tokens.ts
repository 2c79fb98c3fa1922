/**
 * A fast, content-aware token estimate for a string, fitted to OpenAI's `o200k_base` BPE.
 *
 * One pass over the UTF-16 code units, no regular expressions and no allocation. The scan follows
 * the shape of `o200k_base`'s pre-tokenizer (the regular expression that cuts text into pieces
 * before BPE merges them) and prices each piece:
 *
 * - **Letter runs** are cut where the tokenizer cuts them (a lowercase letter followed by an
 *   uppercase one starts a new piece, so `camelCaseName` is three pieces). A piece costs one token
 *   plus a price for every letter pair inside it that rarely occurs inside a vocabulary token:
 *   BPE almost never merges across such a pair, so English words (`the`, `because`) cost one
 *   token while random letters (`xQzR` in base64, API keys, hashes) cost one token per one or two
 *   letters. This is how high-entropy runs are recognised without a separate mode. The pair tables
 *   were derived from the `o200k_base` vocabulary itself (see `bench/shared/derive-letter-pairs.ts`).
 * - **Digit runs** cost one token per group of up to three digits, as `o200k_base` splits them.
 * - **Whitespace**: a single space joins the following word or punctuation; longer runs of spaces
 *   (indentation) cost one token; a run of newlines (with the spaces around it) costs one token
 *   unless it follows punctuation, which absorbs it (`",\n"` is one token).
 * - **Punctuation runs** cost one token for up to three characters, a little more per further
 *   character and much less per repeated character (`------` is one token). A single punctuation
 *   character in front of a word joins it (`_id`, `.map`, `/users`) at a fraction of a token.
 * - **CJK**: per character (Han ≈ 0.83, hiragana ≈ 0.84, katakana ≈ 0.7, Hangul ≈ 0.83 tokens);
 *   CJK punctuation ≈ 0.94.
 * - **Other scripts**: accented Latin letters add ≈ 1.65 tokens each to their word (they mark
 *   non-English words, which `o200k_base` splits more often); Cyrillic, Greek and other alphabets
 *   cost one token per word plus a little per letter; symbols one token; emoji and other astral
 *   characters ≈ 1.6 tokens.
 *
 * Measured against `o200k_base` on samples of 200–8,000 characters (`pnpm --filter @spillway/core
 * bench`), the mean absolute relative error stays within a few percent for English prose, source
 * code, pretty and minified JSON, Chinese, Japanese, Korean, logs, base64 and hex identifiers.
 * Other providers' tokenizers (Anthropic's, Google's) count the same text differently; the
 * estimator's calibration (see `createEstimator`) learns that ratio per model from reported usage.
 */

/** The classes of ASCII characters the scan distinguishes. */
const LOWER = 0;
const UPPER = 1;
const DIGIT = 2;
const SPACE = 3;
const NEWLINE = 4;
const PUNCTUATION = 5;

const asciiKind = new Uint8Array(128).fill(PUNCTUATION);
for (let code = 97; code <= 122; code++) asciiKind[code] = LOWER;
for (let code = 65; code <= 90; code++) asciiKind[code] = UPPER;
for (let code = 48; code <= 57; code++) asciiKind[code] = DIGIT;
asciiKind[32] = SPACE;
asciiKind[9] = SPACE;
asciiKind[11] = SPACE;
asciiKind[12] = SPACE;
asciiKind[10] = NEWLINE;
asciiKind[13] = NEWLINE;

/**
 * For each letter `a`..`z` (case folded), a bit mask of the lowercase letters that commonly follow
 * it inside `o200k_base` vocabulary tokens (bit 0 = `a`): the pair occurs in at least 8 of the
 * 20,000 lowest-ranked tokens.
 */
const commonLowercaseFollowers = [
  0x3febfef, 0x11e4b11, 0x11e4d95, 0x13e5959, 0x3fffdff, 0x11a4931, 0x11e69d1, 0x11a6111, 0x2befeff, 0x144011,
  0x1c6111, 0x13cc939, 0x114f913, 0x13cfffd, 0x1feffff, 0x11ec999, 0x100800, 0x13efd7d, 0x15dfdbd, 0x1def9bd,
  0x10ebd7f, 0x4111, 0x66191, 0x88115, 0xcf915, 0x4111,
];

/**
 * For each uppercase letter `A`..`Z`, a bit mask of the uppercase letters that follow it in at
 * least one of the 100,000 lowest-ranked `o200k_base` tokens (bit 0 = `A`).
 */
const commonUppercaseFollowers = [
  0x3ffffff, 0x17ffbff, 0x1fefdff, 0x1feffff, 0x3fffdff, 0x1defdff, 0x17ef9ff, 0x1ffddff, 0x3bfffff, 0x7eff3f,
  0x17e7dd7, 0x13edd7f, 0x1fffdff, 0x3feffff, 0x1feffff, 0x17ffdff, 0x5f4807, 0x1ffffff, 0x1fffdff, 0x3fffdff,
  0x3febd7f, 0x6edd5f, 0x6ef9bf, 0x1ae991e, 0x34ef855, 0x2c06111,
];

/** Extra tokens for a rare pair of lowercase letters inside a piece (`xq`). */
const RARE_LOWERCASE_PAIR = 0.62;
/** Extra tokens for a rare uppercase-then-lowercase pair inside a piece (`Xq`). */
const RARE_MIXED_CASE_PAIR = 1.3;
/** Extra tokens for a rare pair of uppercase letters inside a piece (`XQ`). */
const RARE_UPPERCASE_PAIR = 2.28;
/** Pieces longer than this many letters cost a little more per letter. */
const LONG_PIECE_LETTERS = 6;
/** Extra tokens per letter beyond `LONG_PIECE_LETTERS`. */
const LONG_PIECE_RATE = 0.02;
/** Correction for a letter piece that directly follows digits (`16Array`, `3f9a`). */
const AFTER_DIGITS = -0.08;
/** Punctuation characters covered by a run's first token. */
const FREE_PUNCTUATION = 3;
/** Extra tokens per further distinct punctuation character of a run. */
const PUNCTUATION_RATE = 0.63;
/** Extra tokens per punctuation character that repeats the previous one (`----`). */
const REPEATED_PUNCTUATION_RATE = 0.12;
/** Cost of a single punctuation character that often joins the following word (`.` `_` `-` `(` `/` `'` `<`). */
const COMMON_PREFIX = 0.26;
/** Cost of any other single punctuation character in front of a word (`=` `>` `@` …). */
const RARE_PREFIX = 0.8;
/** Spaces per whitespace token in long runs of spaces. */
const SPACES_PER_TOKEN = 64;
/** Tokens per Han character. */
const HAN = 0.83;
/** Tokens per hiragana character. */
const HIRAGANA = 0.84;
/** Tokens per katakana character. */
const KATAKANA = 0.7;
/** Tokens per Hangul syllable or jamo. */
const HANGUL = 0.83;
/** Tokens per CJK or full-width punctuation character. */
const CJK_PUNCTUATION = 0.94;
/** Extra tokens per accented Latin letter inside a word. */
const ACCENTED_LATIN = 1.65;
/** Extra tokens per letter of Cyrillic, Greek and other alphabets. */
const OTHER_LETTER = 0.07;
/** Tokens per non-ASCII symbol (`—`, `→`, `©`). */
const SYMBOL = 1;
/** Tokens per astral character (emoji and other characters outside the BMP). */
const ASTRAL = 1.6;

/**
 * Extra tokens for letter pair `(previous, current)` inside one piece, indexed by
 * `previous << 7 | current` (ASCII codes). Row 0 is all zeros, used after a non-ASCII letter.
 */
const pairCost = new Float32Array(128 * 128);
for (let first = 0; first < 26; first++) {
  const lowercaseMask = commonLowercaseFollowers[first]!;
  const uppercaseMask = commonUppercaseFollowers[first]!;
  for (let second = 0; second < 26; second++) {
    const commonLowercase = (lowercaseMask >>> second) & 1;
    pairCost[((97 + first) << 7) | (97 + second)] = commonLowercase ? 0 : RARE_LOWERCASE_PAIR;
    pairCost[((65 + first) << 7) | (97 + second)] = commonLowercase ? 0 : RARE_MIXED_CASE_PAIR;
    pairCost[((65 + first) << 7) | (65 + second)] = (uppercaseMask >>> second) & 1 ? 0 : RARE_UPPERCASE_PAIR;
  }
}

/** Prefix cost by ASCII code of a single punctuation character in front of a word. */
const prefixCost = new Float32Array(128).fill(RARE_PREFIX);
for (const character of "._-(/'<") prefixCost[character.charCodeAt(0)] = COMMON_PREFIX;

/** Whether a non-ASCII code unit is a letter of an alphabetic script (Latin, Greek, Cyrillic, …). */
function isAlphabeticLetter(code: number): boolean {
  return (
    (code >= 0xc0 && code < 0x2000 && code !== 0xd7 && code !== 0xf7) ||
    (code >= 0x2c00 && code < 0x2e00) ||
    (code >= 0xa000 && code < 0xac00) ||
    (code >= 0xfb00 && code < 0xfe00)
  );
}

/** Tokens per character for CJK code units, or 0 for anything else. */
function cjkCost(code: number): number {
  if (code < 0x2e80) return 0;
  if (code >= 0x4e00 && code <= 0x9fff) return HAN;
  if (code >= 0x3040 && code <= 0x309f) return HIRAGANA;
  if (code >= 0x30a0 && code <= 0x30ff) return KATAKANA;
  if (code >= 0xac00 && code <= 0xd7ff) return HANGUL;
  if (code >= 0x3000 && code <= 0x303f) return CJK_PUNCTUATION;
  if (code >= 0xff00 && code <= 0xffef) return CJK_PUNCTUATION;
  if (code >= 0xfe10 && code <= 0xfe6f) return CJK_PUNCTUATION;
  if (code >= 0x3130 && code <= 0x318f) return HANGUL;
  if (code >= 0x2e80 && code <= 0x4dff) return HAN;
  if (code >= 0xf900 && code <= 0xfaff) return HAN;
  return 0;
}

/** The index of the first character at or after `index` that is not `\n` or `\r`. */
function skipLineBreaks(text: string, index: number): number {
  let cursor = index;
  while (cursor < text.length) {
    const code = text.charCodeAt(cursor);
    if (code !== 10 && code !== 13) break;
    cursor++;
  }
  return cursor;
}

/**
 * Estimates how many tokens `text` is for a modern BPE tokenizer (fitted to OpenAI's
 * `o200k_base`). Linear time, no allocation; an empty string is 0 and any other string at least 1.
 */
export function estimateTextTokens(text: string): number {
  const length = text.length;
  let tokens = 0;
  let index = 0;
  while (index < length) {
    let code = text.charCodeAt(index);
    const kind = code < 128 ? asciiKind[code]! : isAlphabeticLetter(code) ? LOWER : PUNCTUATION;

    if (kind <= UPPER) {
      // A word: ASCII and alphabetic letters, cut into pieces at lowercase→uppercase.
      let previous = code < 128 ? code : 0;
      let previousUpper = kind === UPPER;
      let pieceLength = 1;
      let pieceCost = 1;
      if (code >= 128) pieceCost += code < 0x250 ? ACCENTED_LATIN : OTHER_LETTER;
      else if (index > 0) {
        const before = text.charCodeAt(index - 1);
        if (before >= 48 && before <= 57) pieceCost += AFTER_DIGITS;
      }
      index++;
      while (index < length) {
        code = text.charCodeAt(index);
        if (code < 128) {
          const letterKind = asciiKind[code]!;
          if (letterKind > UPPER) break;
          if (letterKind === UPPER && !previousUpper) {
            tokens += pieceCost;
            if (pieceLength > LONG_PIECE_LETTERS)
              tokens += (pieceLength - LONG_PIECE_LETTERS) * LONG_PIECE_RATE;
            pieceLength = 1;
            pieceCost = 1;
          } else {
            pieceLength++;
            pieceCost += pairCost[(previous << 7) | code]!;
          }
          previous = code;
          previousUpper = letterKind === UPPER;
        } else if (isAlphabeticLetter(code)) {
          pieceLength++;
          pieceCost += code < 0x250 ? ACCENTED_LATIN : OTHER_LETTER;
          previous = 0;
          previousUpper = false;
        } else break;
        index++;
      }
      tokens += pieceCost;
      if (pieceLength > LONG_PIECE_LETTERS) tokens += (pieceLength - LONG_PIECE_LETTERS) * LONG_PIECE_RATE;
      continue;
    }

    if (kind === DIGIT) {
      let digits = 1;
      index++;
      while (index < length) {
        code = text.charCodeAt(index);
        if (code < 48 || code > 57) break;
        digits++;
        index++;
      }
      tokens += Math.ceil(digits / 3);
      continue;
    }

    if (kind === SPACE) {
      let spaces = 1;
      index++;
      while (index < length) {
        code = text.charCodeAt(index);
        if (code >= 128 || asciiKind[code] !== SPACE) break;
        spaces++;
        index++;
      }
      if (index >= length) {
        tokens += Math.ceil(spaces / SPACES_PER_TOKEN);
        continue;
      }
      const next = code < 128 ? asciiKind[code]! : LOWER;
      // Whitespace before a newline belongs to the newline's token.
      if (next === NEWLINE) continue;
      // The last space joins the next word or punctuation, but never digits.
      if (next === DIGIT) tokens += 1 + Math.ceil((spaces - 1) / SPACES_PER_TOKEN);
      else tokens += Math.ceil((spaces - 1) / SPACES_PER_TOKEN);
      continue;
    }

    if (kind === NEWLINE) {
      // Whitespace up to the last newline of this whitespace run is one token.
      index++;
      for (let ahead = index; ahead < length; ahead++) {
        const aheadCode = text.charCodeAt(ahead);
        if (aheadCode >= 128) break;
        const aheadKind = asciiKind[aheadCode]!;
        if (aheadKind === NEWLINE) index = ahead + 1;
        else if (aheadKind !== SPACE) break;
      }
      tokens += 1;
      continue;
    }

    const perCharacter = code < 128 ? 0 : cjkCost(code);
    if (perCharacter > 0) {
      // CJK characters and punctuation, priced per character; newlines after punctuation are free.
      tokens += perCharacter;
      let last = perCharacter;
      index++;
      while (index < length) {
        code = text.charCodeAt(index);
        const cost = code < 0x2e80 ? 0 : cjkCost(code);
        if (cost === 0) break;
        tokens += cost;
        last = cost;
        index++;
      }
      if (last === CJK_PUNCTUATION) {
        index = skipLineBreaks(text, index);
      }
      continue;
    }

    // A run of punctuation and symbols (ASCII punctuation, other symbols, emoji). The first
    // character is always consumed here, whatever it is.
    const spaced = index > 0 && text.charCodeAt(index - 1) === 32;
    let distinct = 0;
    let repeats = 0;
    let previous = -1;
    let symbols = 0;
    do {
      if (code < 128) {
        if (code === previous) repeats++;
        else distinct++;
        previous = code;
        index++;
      } else if (code >= 0xd800 && code <= 0xdbff) {
        symbols += ASTRAL;
        index += 2;
      } else {
        symbols += SYMBOL;
        index++;
      }
      if (index >= length) break;
      code = text.charCodeAt(index);
    } while (code < 128 ? asciiKind[code] === PUNCTUATION : !isAlphabeticLetter(code) && cjkCost(code) === 0);
    if (distinct === 1 && repeats === 0 && symbols === 0 && !spaced && index < length) {
      const next = text.charCodeAt(index);
      if (next < 128 ? asciiKind[next]! <= UPPER : isAlphabeticLetter(next)) {
        // A single punctuation character in front of a word joins it.
        tokens += prefixCost[previous]!;
        continue;
      }
    }
    let cost = symbols;
    if (distinct > 0) {
      cost += 1 + repeats * REPEATED_PUNCTUATION_RATE;
      if (distinct > FREE_PUNCTUATION) cost += (distinct - FREE_PUNCTUATION) * PUNCTUATION_RATE;
    }
    tokens += Math.max(1, cost);
    // Newlines right after punctuation join its token.
    index = skipLineBreaks(text, index);
  }
  if (tokens <= 0) return length === 0 ? 0 : 1;
  const rounded = Math.round(tokens);
  return Math.max(1, rounded);
}
