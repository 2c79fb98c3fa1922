import {
  capToolResults,
  createRecallMarks,
  createRecallScope,
  type Message,
  type RecallMarks,
  sameValue,
  type TruncationRecord,
} from '@spillway/core';
import { originals } from './origin';
import type { SdkMessage, SdkPrompt } from './sdk-prompt';
import { toNeutralMessage } from './to-neutral-message';

/** Options of {@link createPromptConverter}. */
export interface PromptConverterOptions {
  /** Storage-time cap on tool results, in characters. */
  toolResultMaxChars: number;
  /** Per-tool caps by tool name. */
  toolResultLimits: Readonly<Record<string, number>>;
  /**
   * The secret references are made with (the engine's `recall.secret`): a result capped here names
   * its original with a `[ref=…]`. `undefined` writes the marker without one.
   * @default undefined
   */
  recallSecret?: string | undefined;
  /**
   * Messages remembered between calls.
   * @default 20000
   */
  maxEntries?: number;
}

/** What {@link PromptConverter.convert} returns. */
export interface ConvertedPrompt {
  /** The neutral messages, tool results already capped. */
  messages: Message[];
  /** The same before the storage-time cap (the same objects where nothing was capped). */
  uncapped: Message[];
  /**
   * Whether `messages[index]` stands for the prompt's message at `index` unchanged (false when the
   * conversion capped a tool result in it).
   */
  unchanged: boolean[];
  /** The caller's SDK message for each neutral message of this call that stands for it unchanged. */
  current(): Map<Message, SdkMessage>;
  /** Tool results capped while converting messages not seen before (indexes into this prompt). */
  records: TruncationRecord[];
}

/** Converts prompts to the neutral model, reusing the conversion of messages seen before. */
export interface PromptConverter {
  convert(prompt: SdkPrompt): ConvertedPrompt;
}

interface Entry {
  sdk: SdkMessage;
  neutral: Message;
  uncapped: Message;
  /** The conversation anchor the capped copy's references were made in (none when nothing was capped). */
  anchor?: string;
}

interface RecentPrompt {
  sdk: SdkPrompt;
  neutral: readonly Message[];
  uncapped: readonly Message[];
}

/**
 * Creates a converter that remembers the messages of previous calls. The AI SDK rebuilds the prompt
 * objects on every call, so identity cannot tell an old message from a new one. Conversations grow
 * by appending, so a new prompt is first compared position by position with the recent prompt it
 * continues; other messages are found by a cheap fingerprint and a structural comparison. A
 * remembered message comes back as the same neutral object, so the engine's per-object memos (token
 * counts, hashes) keep hitting and a 500-message conversation costs O(new messages) per call. The
 * storage-time tool-result cap is applied here, once per new message.
 */
export function createPromptConverter({
  toolResultMaxChars,
  toolResultLimits,
  recallSecret,
  maxEntries = 20_000,
}: PromptConverterOptions): PromptConverter {
  const cache = new Map<string, Entry[]>();
  let size = 0;
  const recent: RecentPrompt[] = [];

  const remember = (key: string, entry: Entry) => {
    const bucket = cache.get(key);
    if (bucket) bucket.push(entry);
    else cache.set(key, [entry]);
    size++;
    while (size > maxEntries) {
      const oldest = cache.keys().next();
      if (oldest.done) break;
      size -= cache.get(oldest.value)?.length ?? 0;
      cache.delete(oldest.value);
    }
  };

  /** The recent prompt this one continues: the longest whose first two messages match. */
  const findBase = (prompt: SdkPrompt): number => {
    let found = -1;
    for (let index = 0; index < recent.length; index++) {
      const candidate = recent[index]!;
      const head = Math.min(2, candidate.sdk.length, prompt.length);
      let matches = head > 0;
      for (let position = 0; position < head && matches; position++) {
        matches = sameValue(candidate.sdk[position], prompt[position]);
      }
      if (matches && (found < 0 || candidate.sdk.length > recent[found]!.sdk.length)) found = index;
    }
    return found;
  };

  return {
    convert(prompt) {
      const messages: Message[] = new Array(prompt.length);
      const uncapped: Message[] = new Array(prompt.length);
      const unchanged: boolean[] = new Array(prompt.length);
      const records: TruncationRecord[] = [];
      // References of results capped here: keyed by this conversation (its first message), made
      // from the result itself (at conversion it is the original).
      let marks: { anchor: string; marks: RecallMarks } | undefined;
      const marksOf = () => {
        if (marks === undefined) {
          const first = prompt.find((message) => message?.role !== 'system');
          const scope = createRecallScope({
            messages: first === undefined ? [] : [toNeutralMessage(first)],
            secret: recallSecret,
          });
          marks = { anchor: scope.anchor, marks: createRecallMarks({ scope, originals: [] }) };
        }
        return marks;
      };
      const baseIndex = findBase(prompt);
      const base = baseIndex >= 0 ? recent[baseIndex] : undefined;
      let aligned = 0;
      if (base !== undefined) {
        // A remembered prompt holds each neutral message once, so no duplicate check is needed here.
        const limit = Math.min(base.sdk.length, prompt.length);
        while (aligned < limit && sameValue(base.sdk[aligned], prompt[aligned])) {
          const neutral = base.neutral[aligned]!;
          messages[aligned] = neutral;
          uncapped[aligned] = base.uncapped[aligned]!;
          unchanged[aligned] = originals.has(neutral);
          aligned++;
        }
      }
      if (aligned < prompt.length) {
        const used = new Set<Message>(messages.slice(0, aligned));
        for (let index = aligned; index < prompt.length; index++) {
          const sdk = prompt[index]!;
          const key = fingerprint(sdk);
          const found = cache.get(key)?.find(
            (entry) =>
              !used.has(entry.neutral) &&
              sameValue(entry.sdk, sdk) &&
              // A copy capped with another conversation's references is not this one's.
              (entry.anchor === undefined || entry.anchor === marksOf().anchor),
          );
          let neutral = found?.neutral;
          let raw = found?.uncapped;
          if (neutral === undefined || raw === undefined) {
            neutral = toNeutralMessage(sdk);
            raw = neutral;
            let anchor: string | undefined;
            if (neutral.role === 'tool') {
              const recall = recallSecret === undefined ? undefined : marksOf();
              const capped = capToolResults([neutral], {
                maxChars: toolResultMaxChars,
                limits: toolResultLimits,
                ...(recall === undefined ? {} : { marks: recall.marks }),
              });
              neutral = capped.messages[0]!;
              if (capped.records.length > 0) anchor = recall?.anchor;
              for (const record of capped.records) records.push({ ...record, messageIndex: index });
            }
            remember(
              key,
              anchor === undefined
                ? { sdk, neutral, uncapped: raw }
                : { sdk, neutral, uncapped: raw, anchor },
            );
          }
          messages[index] = neutral;
          uncapped[index] = raw;
          unchanged[index] = originals.has(neutral);
          used.add(neutral);
        }
      }
      if (baseIndex >= 0) recent.splice(baseIndex, 1);
      recent.unshift({ sdk: prompt, neutral: messages, uncapped });
      if (recent.length > RECENT_PROMPTS) recent.pop();
      return {
        messages,
        uncapped,
        unchanged,
        records,
        current() {
          const map = new Map<Message, SdkMessage>();
          for (let index = 0; index < messages.length; index++) {
            if (unchanged[index]) map.set(messages[index]!, prompt[index]!);
          }
          return map;
        },
      };
    },
  };
}

/** Prompts remembered for position-by-position reuse (concurrent conversations each keep one). */
const RECENT_PROMPTS = 32;

/** A cheap key: role, part count, and per part its type, size and edges. Never the whole content. */
function fingerprint(message: SdkMessage): string {
  const content = message.content;
  if (typeof content === 'string') return `${message.role}|s|${edges(content)}`;
  if (!Array.isArray(content)) return `${message.role}|?`;
  let key = `${message.role}|${content.length}`;
  for (const part of content) {
    if (typeof part !== 'object' || part === null) continue;
    key += `|${part.type}`;
    if (typeof part.text === 'string') key += edges(part.text);
    if (typeof part.toolCallId === 'string') key += part.toolCallId;
    const output = part.output as { value?: unknown } | undefined;
    if (typeof output?.value === 'string') key += edges(output.value);
  }
  return key;
}

function edges(text: string): string {
  return text.length <= 48 ? text : `${text.length}:${text.slice(0, 24)}${text.slice(-24)}`;
}
