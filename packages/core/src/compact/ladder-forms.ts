import type { Message } from '../message/message';
import { type FormedMessage, type FormSettings, formMessage, type MessageForm } from './history-forms';
import { cacheFor, FORMS, variantOf } from './ladder-caches';
import type { LadderSettings } from './ladder-settings';

/** The forms of one history's messages, and what they are remembered under. */
export interface FormLookup {
  /** The settings the forms are made with, as a cache key. */
  readonly settingsKey: string;
  /**
   * History message `index` in `form` (`message` when a structural stage changed it). Each is made
   * once per content and settings (`FORMS`), remembered by position for the conversation's next
   * request (`LadderMemo`), and goes out as this request's own object where the form leaves it as
   * it is.
   */
  formOf(index: number, form: MessageForm, message?: Message): FormedMessage;
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
  const variants = new Map<string, FormedMessage>();
  const formOf = (index: number, form: MessageForm, message = history[index]!): FormedMessage => {
    if (form === 'verbatim')
      return { message, tokens: estimator.countMessage(message), records: [], savings: {} };
    const own = message === history[index];
    const remembered = own ? memo?.forms[index]?.[form] : undefined;
    if (remembered !== undefined) return remembered.unchanged ? { ...remembered, message } : remembered;
    // A message the structural stages changed (a result replaced by a note) is remembered under the
    // original's key and the notes it carries.
    const variant = own ? '' : `|${variantOf(message, history[index]!)}`;
    const local = `${form}:${index}${variant}`;
    let formed = variants.get(local);
    if (formed !== undefined) return formed;
    const cache = cacheFor(FORMS, estimator, keys[index]!);
    const key = `${form}|${settingsKey}|${settings.numberOf(index)}${variant}`;
    let known = cache.get(key);
    if (known === undefined) {
      const made = formMessage(message, index, form, formSettings, history[index]!);
      known = { ...made, unchanged: made.message === message };
      cache.set(key, known);
    }
    if (own && memo !== undefined) memo.forms[index]![form] = known;
    // A message the form leaves as it is goes out as this request's own object.
    formed = known.unchanged ? { ...known, message } : known;
    variants.set(local, formed);
    return formed;
  };
  return { settingsKey, formOf };
}
