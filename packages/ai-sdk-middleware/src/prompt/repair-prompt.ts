import { CONTINUATION_TEXT } from '@spillway/core';
import type { SdkMessage, SdkPrompt } from './sdk-prompt';

/**
 * Makes sure a compacted prompt is one every provider accepts, whatever the engine did:
 * - no tool result whose call was left out (providers answer those with a 400);
 * - no message with empty content;
 * - the conversation still starts with a user message when the original did (Anthropic requires it).
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
