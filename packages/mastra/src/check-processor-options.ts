import { InvalidConfigError } from '@spillway/core';

/**
 * Checks the options `compactionProcessor` reads itself (the engine checks its own).
 * @throws {InvalidConfigError} naming the first bad option.
 */
export function checkProcessorOptions({
  id,
  maxOverflowRetries,
  waitUntil,
  onContextUsage,
  resolveConversationId,
  wholeThread,
  givenMemory,
  dataParts,
}: {
  id: unknown;
  maxOverflowRetries: unknown;
  waitUntil: unknown;
  onContextUsage: unknown;
  resolveConversationId: unknown;
  wholeThread: unknown;
  givenMemory: unknown;
  dataParts: unknown;
}): void {
  if (typeof id !== 'string' || id.length === 0) {
    throw new InvalidConfigError({ option: 'id', value: id, message: 'must be a non-empty string' });
  }
  if (
    typeof maxOverflowRetries !== 'number' ||
    !Number.isInteger(maxOverflowRetries) ||
    maxOverflowRetries < 0
  ) {
    throw new InvalidConfigError({
      option: 'maxOverflowRetries',
      value: maxOverflowRetries,
      message: 'must be an integer >= 0',
    });
  }
  for (const [option, value] of [
    ['waitUntil', waitUntil],
    ['onContextUsage', onContextUsage],
    ['conversationId', resolveConversationId],
  ] as const) {
    if (value !== undefined && typeof value !== 'function') {
      throw new InvalidConfigError({ option, value, message: 'must be a function' });
    }
  }
  if (typeof wholeThread !== 'boolean') {
    throw new InvalidConfigError({ option: 'wholeThread', value: wholeThread, message: 'must be a boolean' });
  }
  if (givenMemory !== undefined && typeof (givenMemory as { recall?: unknown })?.recall !== 'function') {
    throw new InvalidConfigError({
      option: 'memory',
      value: givenMemory,
      message: 'must be a Mastra memory (with recall)',
    });
  }
  if (dataParts !== false && typeof dataParts !== 'function') {
    throw new InvalidConfigError({
      option: 'dataParts',
      value: dataParts,
      message: 'must be a function or false',
    });
  }
}
