import type { Message } from '../message/message';
import type { TruncationRecord } from '../truncate/truncation-record';
import { type FormedMessage, type FormSettings, formMessage, type MessageForm } from './history-forms';
import { cacheFor, FORMS, type KnownForm, type RememberedFold, variantOf } from './ladder-caches';
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
  /** Where folded turns are remembered for the next request (see `RememberedFold`). */
  readonly folds: Map<number, RememberedFold>;
  /**
   * How many messages, from the first, have the content keys and numbers they had on the request
   * the memo was left by (what it remembered of them holds).
   */
  readonly unchangedCount: number;
  /**
   * History message `index` in `form` (`message` when a structural stage changed it). Each is made
   * once per content and settings (`FORMS`) and remembered by position for the conversation's next
   * request (`LadderMemo`); what comes back is shared with them (nothing is allocated per request):
   * where the form leaves the message as it is (`unchanged`), its `message` may be another
   * request's object, and {@link FormLookup.messageOf} gives this request's own.
   */
  formOf(index: number, form: MessageForm, message?: Message): KnownForm;
  /**
   * History message `index` in `form` as it goes out: the form's message, or this request's own
   * object (`message`, else the history's) where the form leaves it as it is.
   */
  messageOf(index: number, form: MessageForm, message?: Message): Message;
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
  let valid = 0;
  if (memo !== undefined) {
    while (
      valid < memo.keys.length &&
      valid < end &&
      memo.keys[valid] === keys[valid] &&
      memo.numbers[valid] === settings.numberOf(valid)
    )
      valid++;
    if (valid < memo.keys.length) {
      // What was remembered past the first change no longer holds.
      memo.folds.forEach((fold, from) => {
        if (fold.to > valid) memo.folds.delete(from);
      });
    }
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
  const own: Record<MessageForm, KnownForm[]> = { verbatim: [], preview: [], stub: [] };
  const variants = new Map<string, KnownForm>();
  const formOf = (index: number, form: MessageForm, message = history[index]!): KnownForm => {
    const isOwn = message === history[index];
    if (isOwn) {
      const done = own[form][index];
      if (done !== undefined) return done;
    }
    let formed: KnownForm | undefined;
    if (form === 'verbatim') {
      formed = {
        message,
        tokens: estimator.countMessage(message),
        records: NO_RECORDS,
        savings: NO_SAVINGS,
        unchanged: true,
      };
      if (isOwn) own.verbatim[index] = formed;
      return formed;
    }
    const remembered = isOwn ? memo?.forms[index]?.[form] : undefined;
    if (remembered !== undefined) {
      own[form][index] = remembered;
      return remembered;
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
      // Member by member, in the verbatim form's order: every form then has one shape, and the
      // passes that read thousands of them per request stay fast (issue 26: against a spread here,
      // a coding session's fresh request at 2,000 messages takes 0.78× the time, 0.94× at 500).
      known = {
        message: made.message,
        tokens: made.tokens,
        records: made.records,
        savings: made.savings,
        unchanged: made.message === message,
      };
      cache.set(key, known);
    }
    if (isOwn && memo !== undefined) memo.forms[index]![form] = known;
    if (isOwn) own[form][index] = known;
    else variants.set(local, known);
    return known;
  };
  // A message the form leaves as it is goes out as this request's own object.
  const messageOf = (index: number, form: MessageForm, message = history[index]!): Message => {
    const formed = formOf(index, form, message);
    return formed.unchanged ? message : formed.message;
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
    messageOf,
    tokensOf,
    keys,
    structural: memo?.structural ?? new Map(),
    folds: memo?.folds ?? new Map(),
    unchangedCount: valid,
  };
}
