import { contentMemo } from '../message/content-memo';
import type { Message } from '../message/message';
import { providerProfile } from '../provider/provider-profile';
import type { RecallMarks } from '../recall/recall-marks';
import { capToolResults } from '../truncate/cap-tool-results';
import { replaceImages } from '../truncate/replace-images';
import type { TruncationRecord } from '../truncate/truncation-record';
import type { CompactionAction } from './compaction-action';
import type { ResolvedCompactionOptions } from './compaction-options';

/** What {@link prepareWorking} returns. */
export interface PreparedWorking {
  /** The conversation after the storage-time cap (and media placeholders), index for index. */
  readonly working: Message[];
  /** What each step cut. */
  readonly records: readonly TruncationRecord[];
  /** Raw tokens each step took off. */
  readonly saved: Partial<Record<CompactionAction, number>>;
  /**
   * What a working message's forms are remembered under: the content memo of the caller's message
   * at its position (a capped copy is a new object every time), or the message itself.
   */
  keyOf(message: Message): object;
}

/**
 * The prelude of every request, whatever the window: the storage-time cap on tool results, and
 * media inside tool results as placeholders for a provider that could only send them as text.
 */
export function prepareWorking(
  messages: readonly Message[],
  {
    options,
    provider,
    marks,
    countMessages,
  }: {
    options: ResolvedCompactionOptions;
    provider: string | undefined;
    marks: RecallMarks | undefined;
    countMessages: (list: readonly Message[]) => number;
  },
): PreparedWorking {
  const records: TruncationRecord[] = [];
  const saved: Partial<Record<CompactionAction, number>> = {};
  const capped = capToolResults(messages, {
    maxChars: options.toolResultMaxChars,
    limits: options.toolResultLimits,
    ...(marks === undefined ? {} : { marks }),
  });
  if (capped.records.length > 0)
    saved['cap-tool-results'] = countMessages(messages) - countMessages(capped.messages);
  records.push(...capped.records);
  let working = capped.messages;
  if (options.toolResultMedia === 'placeholder' && providerProfile(provider).toolResultMedia === 'text') {
    const media = replaceImages(working, {
      before: Number.POSITIVE_INFINITY,
      includeFiles: true,
      toolResultsOnly: true,
      ...(marks === undefined ? {} : { marks }),
    });
    if (media.records.length > 0)
      saved['tool-result-media'] = countMessages(working) - countMessages(media.messages);
    records.push(...media.records);
    working = media.messages;
  }
  const originalOf = new Map<Message, Message>();
  working.forEach((message, index) => {
    if (message !== messages[index]) originalOf.set(message, messages[index]!);
  });
  return {
    working,
    records,
    saved,
    keyOf(message) {
      const original = originalOf.get(message) ?? message;
      return contentMemo(original) ?? original;
    },
  };
}
