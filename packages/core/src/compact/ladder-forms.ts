import type { Message } from '../message/message';
import type { TruncationRecord } from '../truncate/truncation-record';
import { type FormedMessage, type FormSettings, formMessage, type MessageForm } from './history-forms';
import { cacheFor, FORMS, variantOf } from './ladder-caches';
import type { LadderSettings } from './ladder-settings';
import type { StructuralEntry } from './structural-memo';

const NO_RECORDS: readonly TruncationRecord[] = Object.freeze([]);
const NO_SAVINGS: FormedMessage['savings'] = Object.freeze({});

/** The forms of one history's messages, and what they are remembered under. */
export interface FormLookup {
  /** The settings the forms are made with, as a cache key. */
  readonly settingsKey: string;
  /** The content key of each history message (`settings.keyOf`). */
  readonly keys: readonly object[];
  /** Where structural results are remembered for the next request (see `rememberedStructural`). */
  readonly structural: Map<string, StructuralEntry>;
  /**
   * History message `index` in `form` (`message` when a structural stage changed it). Each is made
   * once per content and settings (`FORMS`), remembered by position for the conversation's next
   * request (`LadderMemo`), and goes out as this request's own object where the form leaves it as
   * it is.
   */
  formOf(index: number, form: MessageForm, message?: Message): FormedMessage;
  /** The raw tokens of history message `index` in `form`: `formOf(index, form).tokens`, made no object for. */
  tokensOf(index: number, form: MessageForm): number;
}

/** The form lookup of a history (see {@link FormLookup}). */
export function createFormLookup(
  history: readonly Message[],
  settings: LadderSettings,
  formSettings: FormSettings,
): FormLookup {
  const { estimator } = settings;
  const end = history.length;
  const settingsKey = [
    settings.previewMinChars,
    settings.previewKeepChars,
    settings.blobMinChars,
    settings.blobKeepChars,
    settings.imagePlaceholders,
    settings.stubResults,
    settings.marks?.key ?? '-',
  ].join('|');
  // What earlier requests of this conversation computed for the same messages (see `LadderMemo`):
  // valid up to the first message whose content key or number differs.
  const memo = settings.memo?.(settingsKey);
  const keys = history.map((message) => settings.keyOf(message));
  if (memo !== undefined) {
    let valid = 0;
    while (
      valid < memo.keys.length &&
      valid < end &&
      memo.keys[valid] === keys[valid] &&
      memo.numbers[valid] === settings.numberOf(valid)
    )
      valid++;
    memo.keys.length = valid;
    memo.numbers.length = valid;
    memo.forms.length = valid;
    for (let index = valid; index < end; index++) {
      memo.keys.push(keys[index]!);
      memo.numbers.push(settings.numberOf(index));
      memo.forms.push({});
    }
  }
  // This request's forms of its own messages, by form and index (a form is asked for many times).
  const own: Record<MessageForm, FormedMessage[]> = { verbatim: [], preview: [], stub: [] };
  const variants = new Map<string, FormedMessage>();
  const formOf = (index: number, form: MessageForm, message = history[index]!): FormedMessage => {
    const isOwn = message === history[index];
    if (isOwn) {
      const done = own[form][index];
      if (done !== undefined) return done;
    }
    let formed: FormedMessage | undefined;
    if (form === 'verbatim') {
      formed = { message, tokens: estimator.countMessage(message), records: NO_RECORDS, savings: NO_SAVINGS };
      if (isOwn) own.verbatim[index] = formed;
      return formed;
    }
    const remembered = isOwn ? memo?.forms[index]?.[form] : undefined;
    if (remembered !== undefined) {
      formed = remembered.unchanged ? { ...remembered, message } : remembered;
      own[form][index] = formed;
      return formed;
    }
    // A message the structural stages changed (a result replaced by a note) is remembered under the
    // original's key and the notes it carries.
    const variant = isOwn ? '' : `|${variantOf(message, history[index]!)}`;
    const local = isOwn ? '' : `${form}:${index}${variant}`;
    if (!isOwn) {
      formed = variants.get(local);
      if (formed !== undefined) return formed;
    }
    const cache = cacheFor(FORMS, estimator, keys[index]!);
    const key = `${form}|${settingsKey}|${settings.numberOf(index)}${variant}`;
    let known = cache.get(key);
    if (known === undefined) {
      const made = formMessage(message, index, form, formSettings, history[index]!);
      known = { ...made, unchanged: made.message === message };
      cache.set(key, known);
    }
    if (isOwn && memo !== undefined) memo.forms[index]![form] = known;
    // A message the form leaves as it is goes out as this request's own object.
    formed = known.unchanged ? { ...known, message } : known;
    if (isOwn) own[form][index] = formed;
    else variants.set(local, formed);
    return formed;
  };
  const verbatimTokens: number[] = [];
  const tokensOf = (index: number, form: MessageForm): number => {
    const done = own[form][index];
    if (done !== undefined) return done.tokens;
    if (form === 'verbatim') {
      let tokens = verbatimTokens[index];
      if (tokens === undefined) {
        tokens = estimator.countMessage(history[index]!);
        verbatimTokens[index] = tokens;
      }
      return tokens;
    }
    return memo?.forms[index]?.[form]?.tokens ?? formOf(index, form).tokens;
  };
  return {
    settingsKey,
    formOf,
    tokensOf,
    keys,
    structural: memo?.structural ?? new Map(),
  };
}
