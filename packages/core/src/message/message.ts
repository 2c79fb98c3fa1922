/**
 * The neutral message model. Framework adapters convert their messages into this shape and back;
 * the engine only ever reads it and, where it changes something, builds new objects. A message the
 * engine did not change is returned as the very same object, so adapters can map it back to the
 * framework's original by identity.
 */

/** Who wrote a message. Tool results travel in `tool` messages. */
export type MessageRole = 'system' | 'user' | 'assistant' | 'tool';

/** Plain text. */
export interface TextPart {
  readonly type: 'text';
  readonly text: string;
}

/**
 * An image, inline or by URL. `data` is base64 text or raw bytes. Dimensions are read from the
 * image header when not given.
 */
export interface ImagePart {
  readonly type: 'image';
  /** Base64 text (without a `data:` prefix) or raw bytes. */
  readonly data?: string | Uint8Array;
  /** A remote or `data:` URL, when the image is not inline. */
  readonly url?: string;
  /** IANA media type, e.g. `image/png`. */
  readonly mediaType?: string;
  readonly filename?: string;
  readonly width?: number;
  readonly height?: number;
  /** OpenAI's `detail` setting; `low` images cost a flat 85 tokens there. */
  readonly detail?: 'low' | 'high' | 'auto';
}

/** A non-image file (PDF, audio, …), inline or by URL. */
export interface FilePart {
  readonly type: 'file';
  readonly data?: string | Uint8Array;
  readonly url?: string;
  readonly mediaType?: string;
  readonly filename?: string;
}

/** Model reasoning ("thinking") text. */
export interface ReasoningPart {
  readonly type: 'reasoning';
  readonly text: string;
}

/** A tool call made by the assistant. */
export interface ToolCallPart {
  readonly type: 'tool-call';
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: unknown;
}

/** What a tool result may contain besides plain text. */
export type ToolResultContentPart = TextPart | ImagePart | FilePart | OpaquePart;

/** The result of a tool call, matched to its call by `toolCallId`. */
export interface ToolResultPart {
  readonly type: 'tool-result';
  readonly toolCallId: string;
  readonly toolName: string;
  /** The result as text, or as a list of parts (text, images, files, opaque items). */
  readonly content: string | readonly ToolResultContentPart[];
  /** Whether the tool reported a failure. The engine never sets this on a result it shortened. */
  readonly isError?: boolean;
}

/**
 * Anything the engine does not understand (provider items, custom parts, approval responses…).
 * It is carried through untouched and counted by size.
 */
export interface OpaquePart {
  readonly type: 'opaque';
  /** The framework's original part. */
  readonly value: unknown;
  /**
   * Text the engine may count and show in transcripts. When absent, the engine counts the JSON
   * size of `value` (binary data counted by length).
   */
  readonly text?: string;
  /**
   * Set by an adapter on a provider's own compaction block or item (an Anthropic `compaction`
   * block, an OpenAI Responses `compaction` item): context the provider manages. The engine keeps
   * the part, its message and everything before it verbatim and in place, counts the part, and
   * treats every message before the last such part as compacted by the provider already: not
   * counted, never summarized, never compacted again (see `splitProviderCompacted`).
   */
  readonly providerManaged?: 'compaction';
}

/** Any part of a message. */
export type MessagePart =
  | TextPart
  | ImagePart
  | FilePart
  | ReasoningPart
  | ToolCallPart
  | ToolResultPart
  | OpaquePart;

/** One message of a conversation. */
export interface Message {
  readonly role: MessageRole;
  /** Plain text, or a list of parts. */
  readonly content: string | readonly MessagePart[];
}
