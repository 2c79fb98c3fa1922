import { CONTINUATION_TEXT } from '@spillway/core';
import type { SdkMessage, SdkPart, SdkPrompt } from './sdk-prompt';

/**
 * Makes sure a compacted prompt is one every provider accepts, whatever the engine did:
 * - no tool result whose call was left out (providers answer those with a 400);
 * - no message with empty content;
 * - the conversation still starts with a user message when the original did (Anthropic requires it);
 * - a user message the engine made (the note an emergency drop leaves, a summary placed as a user
 *   message) is not followed by another user message: it goes as the first parts of that message
 *   (Gemini rejects two user turns in a row; `@ai-sdk/anthropic` groups them the same way).
 * Returns `prompt` itself when nothing needed repair.
 */
export function repairPrompt(prompt: SdkMessage[], original: SdkPrompt): SdkMessage[] {
  if (prompt === original) return prompt;
  const sent = toolCallIds(prompt);
  const removed = new Set<string>();
  for (const id of toolCallIds(original)) if (!sent.has(id)) removed.add(id);
  let changed = false;
  const repaired: SdkMessage[] = [];
  for (const message of prompt) {
    let next = message;
    if (removed.size > 0 && message.role === 'tool' && Array.isArray(message.content)) {
      const content = message.content.filter(
        (part) => !(part?.type === 'tool-result' && removed.has(String(part.toolCallId))),
      );
      if (content.length !== message.content.length) next = { ...message, content };
    }
    if (message.role !== 'system' && Array.isArray(next.content) && next.content.length === 0) {
      changed = true;
      continue;
    }
    if (next !== message) changed = true;
    repaired.push(next);
  }
  const own = new Set<SdkMessage>(original);
  for (let index = repaired.length - 2; index >= 0; index--) {
    const made = repaired[index]!;
    const next = repaired[index + 1]!;
    if (made.role !== 'user' || next.role !== 'user' || own.has(made)) continue;
    repaired.splice(index, 2, { ...next, content: [...partsOf(made), ...partsOf(next)] });
    changed = true;
  }
  const firstIndex = repaired.findIndex((message) => message.role !== 'system');
  const originalFirst = original.find((message) => message.role !== 'system');
  if (firstIndex >= 0 && repaired[firstIndex]!.role !== 'user' && originalFirst?.role === 'user') {
    repaired.splice(firstIndex, 0, { role: 'user', content: [{ type: 'text', text: CONTINUATION_TEXT }] });
    changed = true;
  }
  return changed ? repaired : prompt;
}

function toolCallIds(prompt: SdkPrompt): Set<string> {
  const ids = new Set<string>();
  for (const message of prompt) {
    if (message.role !== 'assistant' || !Array.isArray(message.content)) continue;
    for (const part of message.content) if (part?.type === 'tool-call') ids.add(String(part.toolCallId));
  }
  return ids;
}

function partsOf(message: SdkMessage): readonly SdkPart[] {
  return typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
}
