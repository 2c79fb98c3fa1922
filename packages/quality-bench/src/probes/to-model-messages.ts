import type { ModelMessage } from 'ai';
import type { BenchRequest, RequestPart } from '../request/bench-request';

/** A request as AI SDK messages again, for asking a real model about it. */
export interface ProbeMessages {
  /** The system messages' text, joined. */
  system: string;
  messages: ModelMessage[];
  /** The tools the request's tool calls name (a provider wants them declared). */
  toolNames: string[];
}

const imageText = (mediaType: string) => `[image: ${mediaType}]`;

function parseInput(input: string): unknown {
  try {
    return JSON.parse(input);
  } catch {
    return { input };
  }
}

/**
 * Turns the request a strategy sent (a `BenchRequest`) back into AI SDK messages, as it was sent:
 * system text, user and assistant text, tool calls with their arguments, tool results. Images
 * become a one-line placeholder (`[image: image/png]`), so the probe works with text-only models
 * (most local servers); the facts probed are all text.
 */
export function toModelMessages(request: BenchRequest): ProbeMessages {
  const system: string[] = [];
  const messages: ModelMessage[] = [];
  const toolNames = new Set<string>();
  const text = (part: RequestPart): string =>
    part.type === 'text' ? part.text : part.type === 'image' ? imageText(part.mediaType) : '';
  for (const message of request) {
    if (message.role === 'system') {
      system.push(message.parts.map(text).join('\n'));
      continue;
    }
    if (message.role === 'user') {
      messages.push({ role: 'user', content: message.parts.map(text).filter(Boolean).join('\n') });
      continue;
    }
    if (message.role === 'assistant') {
      const content: Extract<ModelMessage, { role: 'assistant' }>['content'] = [];
      for (const part of message.parts) {
        if (part.type === 'tool-call') {
          toolNames.add(part.toolName);
          content.push({
            type: 'tool-call',
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            input: parseInput(part.input),
          });
        } else if (part.type !== 'tool-result') {
          const value = text(part);
          if (value !== '') content.push({ type: 'text', text: value });
        }
      }
      if (content.length > 0) messages.push({ role: 'assistant', content });
      continue;
    }
    const results: Extract<ModelMessage, { role: 'tool' }>['content'] = [];
    for (const part of message.parts) {
      if (part.type !== 'tool-result') continue;
      toolNames.add(part.toolName);
      results.push({
        type: 'tool-result',
        toolCallId: part.toolCallId,
        toolName: part.toolName,
        output: { type: 'text', value: part.content.map(text).join('\n') },
      });
    }
    if (results.length > 0) messages.push({ role: 'tool', content: results });
  }
  return { system: system.join('\n\n'), messages, toolNames: [...toolNames] };
}
