/**
 * A request as the model receives it, in one shape for every framework: the AI SDK's provider
 * prompt and LangChain's messages are both converted to this before anything is counted or scored.
 */

/** Text the model reads (system prompt, message text, reasoning, a tool result's text). */
export interface RequestTextPart {
  readonly type: 'text';
  readonly text: string;
}

/** An image, inline (base64) or by URL. */
export interface RequestImagePart {
  readonly type: 'image';
  /** Base64 data or a URL. */
  readonly data: string;
  readonly mediaType: string;
}

/** A tool call; `input` is its arguments as JSON text. */
export interface RequestToolCallPart {
  readonly type: 'tool-call';
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: string;
}

/** A tool result: text and images. */
export interface RequestToolResultPart {
  readonly type: 'tool-result';
  readonly toolCallId: string;
  readonly toolName: string;
  readonly content: readonly (RequestTextPart | RequestImagePart)[];
}

export type RequestPart = RequestTextPart | RequestImagePart | RequestToolCallPart | RequestToolResultPart;

/** One message of a request. */
export interface RequestMessage {
  readonly role: 'system' | 'user' | 'assistant' | 'tool';
  readonly parts: readonly RequestPart[];
}

/** What one model call received. */
export type BenchRequest = readonly RequestMessage[];

/** Every piece of text of a part, in order (tool-call inputs included). */
export function partTexts(part: RequestPart): string[] {
  switch (part.type) {
    case 'text':
      return [part.text];
    case 'image':
      return [];
    case 'tool-call':
      return [part.input];
    case 'tool-result':
      return part.content.flatMap((item) => (item.type === 'text' ? [item.text] : []));
  }
}

/** Every piece of text of a message, in order. */
export function messageTexts(message: RequestMessage): string[] {
  return message.parts.flatMap(partTexts);
}

/** All the text a request carries, one piece per line: what survival is checked against. */
export function requestText(request: BenchRequest): string {
  return request.flatMap(messageTexts).join('\n');
}
