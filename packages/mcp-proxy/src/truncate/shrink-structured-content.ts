import { truncateText } from '@spillway/core';
import { LargeText, type TextValue } from '../large-text/large-text';
import { countTextTokens } from './count-text-tokens';
import { jsonText } from './json-text';
import { truncateLargeText } from './truncate-large-text';

/** Options of {@link shrinkStructuredContent}. */
export interface ShrinkStructuredContentOptions {
  /** Token budget of the serialized JSON. */
  maxTokens: number;
  /**
   * Head share of shortened strings.
   * @default 0.5
   */
  headRatio?: number;
  /** Whether a candidate is acceptable (e.g. valid against the tool's `outputSchema`). */
  accept?: (value: Record<string, unknown>) => boolean;
}

/** What {@link shrinkStructuredContent} did. */
export interface ShrinkStructuredContentResult {
  /** The shortened value; `undefined` when no acceptable value fits the budget. */
  readonly value: Record<string, unknown> | undefined;
  /** One line per shortened string or cut array, e.g. `$.entities: kept 12 of 4000 items`. */
  readonly notes: readonly string[];
  /** The serialized original (for paging): a large text when the value holds one (never joined). */
  readonly json: TextValue;
  /** Estimated tokens of the serialized original. */
  readonly tokenCount: number;
}

const MAX_LEVELS = 14;
const MIN_STRING_CHARS = 24;
const MAX_NOTES = 12;

/**
 * Shortens a `structuredContent` object until its JSON fits `maxTokens`: long strings become head +
 * tail (with `@spillway/core`'s marker inside the string), long arrays keep their first items. It
 * tries ever tighter limits, and returns the first candidate that fits and that `accept` approves.
 * The input is never mutated; a value that already fits comes back as the same object.
 */
export function shrinkStructuredContent(
  value: Record<string, unknown>,
  { maxTokens, headRatio = 0.5, accept = () => true }: ShrinkStructuredContentOptions,
): ShrinkStructuredContentResult {
  const json = jsonText(value);
  const tokenCount = countTextTokens(json);
  if (tokenCount <= maxTokens || !Number.isFinite(maxTokens)) return { value, notes: [], json, tokenCount };
  const budgetChars = Math.max(
    MIN_STRING_CHARS,
    Math.floor((maxTokens * json.length) / Math.max(1, tokenCount)),
  );
  for (let level = 0; level < MAX_LEVELS; level++) {
    const limits = {
      maxStringChars: Math.max(MIN_STRING_CHARS, Math.floor(budgetChars / 2 ** (level + 1))),
      maxArrayItems: Math.max(1, Math.floor(2 ** (MAX_LEVELS - 1 - level) / 4)),
      headRatio,
    };
    const notes: string[] = [];
    const candidate = shrink(value, '$', limits, notes) as Record<string, unknown>;
    const candidateTokens = countTextTokens(JSON.stringify(candidate));
    if (candidateTokens <= maxTokens && accept(candidate)) {
      return { value: candidate, notes: summarizeNotes(notes), json, tokenCount };
    }
  }
  return { value: undefined, notes: [], json, tokenCount };
}

interface Limits {
  maxStringChars: number;
  maxArrayItems: number;
  headRatio: number;
}

function shrink(input: unknown, path: string, limits: Limits, notes: string[]): unknown {
  // A long string read from the upstream in pieces is cut without being joined.
  if (LargeText.isInstance(input)) {
    if (input.length <= limits.maxStringChars) return input.toString();
    notes.push(`${path}: kept ${limits.maxStringChars} of ${input.length} characters`);
    return truncateLargeText(input, { maxChars: limits.maxStringChars, headRatio: limits.headRatio });
  }
  const value = input;
  if (typeof value === 'string') {
    if (value.length <= limits.maxStringChars) return value;
    notes.push(`${path}: kept ${limits.maxStringChars} of ${value.length} characters`);
    return truncateText(value, {
      maxChars: limits.maxStringChars,
      mode: 'head-tail',
      headRatio: limits.headRatio,
    });
  }
  if (Array.isArray(value)) {
    const kept = value.length > limits.maxArrayItems ? value.slice(0, limits.maxArrayItems) : value;
    if (kept !== value) notes.push(`${path}: kept ${kept.length} of ${value.length} items`);
    return kept.map((item, index) => shrink(item, `${path}[${index}]`, limits, notes));
  }
  if (value !== null && typeof value === 'object') {
    const output: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      output[key] = shrink(
        item,
        /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`,
        limits,
        notes,
      );
    }
    return output;
  }
  return value;
}

function summarizeNotes(notes: string[]): string[] {
  if (notes.length <= MAX_NOTES) return notes;
  return [...notes.slice(0, MAX_NOTES), `and ${notes.length - MAX_NOTES} more`];
}
