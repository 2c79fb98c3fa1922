import { estimateTextTokens } from '../estimate/estimate-text-tokens';
import type { FilePart, ImagePart, Message } from '../message/message';
import { imagePlaceholderWithRef } from '../truncate/image-placeholder';
import { parseRecallInput, type RecallRequest } from './parse-recall-input';
import { readRecallPage } from './read-recall-page';
import type { RecallAnswerOptions } from './recall-answer-options';
import type { RecallArchive, RecallArchiveEntry } from './recall-archive';
import {
  conversationMessages,
  imageFingerprint,
  renderMessageMaterial,
  renderSpanMaterial,
  spanFingerprint,
  toolResultTexts,
} from './recall-material';
import { parseRecallRef } from './recall-ref';
import { createRecallScope, DEFAULT_RECALL_SECRET, type RecallScope } from './recall-scope';
import { RECALL_TOOL_NAME } from './recall-tool';
import { restoreArchivedOriginals } from './restore-archived-originals';
import { type RecallSource, searchRecall } from './search-recall';

/** Options of {@link recallFromMessages}: the read-back tool's shared options, and what it was called with. */
export interface RecallFromMessagesOptions extends RecallAnswerOptions {
  /** The read-back tool's arguments, as the model sent them. */
  input: unknown;
  /**
   * The conversation as the framework holds it: the originals (the AI SDK hands them to a tool's
   * `execute`; LangChain keeps them in the agent state or the chat history). System messages may
   * be included or not.
   */
  messages: readonly Message[];
}

/** What {@link recallFromMessages} answers: what the tool returns to the model. */
export interface RecallAnswer {
  /** The answer: a page with its header and footer, a list of matches, or an error for the model. */
  readonly text: string;
  /** Whether `text` is an error (unknown reference, bad arguments). */
  readonly isError: boolean;
  /** For an image or file reference: the original, for adapters that can return media to the model. */
  readonly media?: ImagePart | FilePart;
}

/** Default characters of one answer. */
export const RECALL_ANSWER_MAX_CHARS = 8_000;

/**
 * The share of a context window one read-back answer may take: small enough that the newest page
 * fits beside the system prompt, the reduced history and the turn's earlier pages (cut to their
 * floor first), large enough to read a 600 KB result in a few dozen calls at 128K.
 */
export const RECALL_ANSWER_WINDOW_SHARE = 0.15;

/** The fewest tokens an answer is sized to, whatever the window: a header, a footer and some text. */
const RECALL_ANSWER_MIN_TOKENS = 200;

/** Tokens one read-back answer may take in a window of `contextWindow` tokens (see `maxTokens`). */
export function recallAnswerMaxTokens(contextWindow: number): number {
  return Math.max(RECALL_ANSWER_MIN_TOKENS, Math.floor(contextWindow * RECALL_ANSWER_WINDOW_SHARE));
}

/**
 * The read-back tool's work, framework-neutral: parses the arguments, then reads a page of the
 * material behind a reference, or searches. References are resolved by recomputing them over
 * `messages` (no storage: a tool result's text, an image, or a span of messages is found in the
 * conversation and its reference checked against its content), or, for tool results capped at
 * storage time, in `archive` (whose originals first take the place of their capped copies, see
 * `restoreArchivedOriginals`). A reference from another conversation, a made-up one, or one whose
 * material is gone answers with an error for the model. Search covers the conversation's material
 * (every tool result and every message, not answers of the read-back tool itself), archived
 * originals in place of their capped copies. Never throws: bad input, a refused pattern and a store
 * that fails each answer with one line for the model (`isError`).
 */
export async function recallFromMessages(options: RecallFromMessagesOptions): Promise<RecallAnswer> {
  const parsed = parseRecallInput(options.input);
  if (!parsed.ok) return { text: parsed.message, isError: true };
  try {
    return await answer(parsed.request, options);
  } catch (error) {
    // A store or a conversation that cannot be read: one line for the model, never a throw.
    return { text: failedRead(error), isError: true };
  }
}

async function answer(
  request: RecallRequest,
  {
    messages: given,
    secret = DEFAULT_RECALL_SECRET,
    archive,
    conversationId,
    maxChars = RECALL_ANSWER_MAX_CHARS,
    maxTokens,
  }: RecallFromMessagesOptions,
): Promise<RecallAnswer> {
  const limit = Math.max(200, Math.floor(Number.isFinite(maxChars) ? maxChars : RECALL_ANSWER_MAX_CHARS));
  const tokenLimit =
    maxTokens !== undefined && Number.isFinite(maxTokens)
      ? Math.max(RECALL_ANSWER_MIN_TOKENS, Math.floor(maxTokens))
      : undefined;
  // Originals capped at storage time stand where their copies are: references name the originals.
  const messages = await restoreArchivedOriginals({ messages: given, archive, conversationId });
  const scope = createRecallScope({ messages, secret });
  const conversation = conversationMessages(messages);
  const archived = { archive, conversationId };

  if (request.mode === 'read' || request.ref !== undefined) {
    const ref = request.ref as string;
    const material = await resolveRecallRef({ ref, conversation, scope, ...archived });
    if (material === undefined) return { text: unknownRef(ref), isError: true };
    if (request.mode === 'search') {
      const sources = [
        {
          ref: material.ref,
          text: material.text,
          start: request.offset,
          ...(request.length === undefined ? {} : { end: request.offset + request.length }),
        },
      ];
      const result = withinTokens(limit, tokenLimit, (chars) =>
        searchRecall({ sources, pattern: request.search, maxChars: chars }),
      );
      return { text: result.text, isError: result.refused === true };
    }
    const page = withinTokens(Math.min(request.length ?? limit, limit), tokenLimit, (length) =>
      readRecallPage({ ref: material.ref, text: material.text, offset: request.offset, length }),
    );
    const answer = { text: page.text, isError: false };
    return material.media === undefined ? answer : { ...answer, media: material.media };
  }

  const sources = await recallSources({ conversation, scope, ...archived });
  const result = withinTokens(limit, tokenLimit, (chars) =>
    searchRecall({ sources, pattern: request.search, maxChars: chars, from: request.offset }),
  );
  return { text: result.text, isError: result.refused === true };
}

/**
 * The answer `make` gives for `chars` characters, made shorter (in proportion, a few times at most)
 * until its text is within `tokenLimit` by the estimate.
 */
function withinTokens<Answer extends { readonly text: string }>(
  chars: number,
  tokenLimit: number | undefined,
  make: (chars: number) => Answer,
): Answer {
  let size = chars;
  let answer = make(size);
  for (let attempt = 0; tokenLimit !== undefined && attempt < 6; attempt++) {
    const tokens = estimateTextTokens(answer.text);
    if (tokens <= tokenLimit || size <= 1) break;
    size = Math.max(1, Math.floor(size * (tokenLimit / tokens) * 0.95));
    answer = make(size);
  }
  return answer;
}

/** The material behind a reference. */
export interface RecallMaterial {
  /** The reference, as Spillway writes it. */
  readonly ref: string;
  /** The text the reference reads (for an image: its placeholder line). */
  readonly text: string;
  /** The image or file itself, for an image reference. */
  readonly media?: ImagePart | FilePart;
}

/** Options of {@link resolveRecallRef}. */
export interface ResolveRecallRefOptions {
  /** The reference (a `ref=` prefix and quotes are tolerated). */
  ref: string;
  /** The conversation without system messages (what span references count). */
  conversation: readonly Message[];
  scope: RecallScope;
  archive?: RecallArchive | undefined;
  conversationId?: string | undefined;
}

/**
 * Finds the material behind `ref` in `conversation` by recomputing its reference from the
 * candidates (a tool result's text by its call id, an image by its content, a span by its messages),
 * then in the archive; `undefined` when nothing in this conversation has that reference.
 */
export async function resolveRecallRef({
  ref: given,
  conversation,
  scope,
  archive,
  conversationId,
}: ResolveRecallRefOptions): Promise<RecallMaterial | undefined> {
  const parsed = parseRecallRef(given);
  if (parsed === undefined) return undefined;
  const { ref } = parsed;
  switch (parsed.kind) {
    case 'tool-result': {
      for (const message of conversation) {
        if (!Array.isArray(message.content)) continue;
        for (const part of message.content) {
          if (part?.type !== 'tool-result') continue;
          const texts = toolResultTexts(part);
          for (let index = 0; index < texts.length; index++) {
            if (scope.toolResultLocator(part.toolCallId, index) !== parsed.locator) continue;
            if (scope.toolResultRef(part.toolCallId, index, texts[index]!) === ref) {
              return { ref, text: texts[index]! };
            }
          }
        }
      }
      if (archive === undefined || conversationId === undefined) return undefined;
      const entry = await archive.get(conversationId, ref);
      return entry === undefined || entry.ref !== ref ? undefined : { ref, text: entry.text };
    }
    case 'image': {
      for (const message of conversation) {
        for (const media of mediaOf(message)) {
          if (scope.imageRef(imageFingerprint(media)) === ref) {
            return { ref, text: imagePlaceholderWithRef(media, ref), media };
          }
        }
      }
      return undefined;
    }
    case 'span': {
      const { from, to } = parsed;
      if (to > conversation.length) return undefined;
      if (scope.spanRef(from, to, spanFingerprint(conversation, from, to)) !== ref) return undefined;
      return { ref, text: renderSpanMaterial(conversation, from, to, scope) };
    }
  }
}

/** Options of {@link recallSources}. */
export interface RecallSourcesOptions {
  /** The conversation without system messages. */
  conversation: readonly Message[];
  scope: RecallScope;
  archive?: RecallArchive | undefined;
  conversationId?: string | undefined;
}

/**
 * Everything a search looks through, oldest first: every tool result's text under its `t.`
 * reference (an archived original in place of its capped copy), and every other message under its
 * own one-message `s.` reference. Answers of the read-back tool itself are left out (they repeat
 * what they read).
 */
export async function recallSources({
  conversation,
  scope,
  archive,
  conversationId,
}: RecallSourcesOptions): Promise<RecallSource[]> {
  const archivedByLocator = new Map<string, RecallArchiveEntry>();
  if (archive !== undefined && conversationId !== undefined) {
    for (const entry of await archive.list(conversationId)) {
      const parsed = parseRecallRef(entry.ref);
      if (parsed?.kind === 'tool-result') archivedByLocator.set(parsed.locator, entry);
    }
  }
  const sources: RecallSource[] = [];
  conversation.forEach((message, index) => {
    const parts = Array.isArray(message.content) ? message.content : [];
    const results = parts.filter((part) => part?.type === 'tool-result');
    if (message.role === 'tool' || (results.length > 0 && results.length === parts.length)) {
      for (const part of results) {
        if (part.type !== 'tool-result' || part.toolName === RECALL_TOOL_NAME) continue;
        toolResultTexts(part).forEach((text, textIndex) => {
          const archived = archivedByLocator.get(scope.toolResultLocator(part.toolCallId, textIndex));
          sources.push(archived ?? { ref: scope.toolResultRef(part.toolCallId, textIndex, text), text });
        });
      }
      return;
    }
    const ref = scope.spanRef(index, index + 1, spanFingerprint(conversation, index, index + 1));
    const text = renderMessageMaterial(message, index, (media) =>
      imagePlaceholderWithRef(media, scope.imageRef(imageFingerprint(media))),
    );
    sources.push({ ref, text });
  });
  return sources;
}

function mediaOf(message: Message): (ImagePart | FilePart)[] {
  if (!Array.isArray(message.content)) return [];
  const found: (ImagePart | FilePart)[] = [];
  for (const part of message.content) {
    if (part?.type === 'image' || part?.type === 'file') found.push(part);
    else if (part?.type === 'tool-result' && Array.isArray(part.content)) {
      for (const item of part.content) if (item?.type === 'image' || item?.type === 'file') found.push(item);
    }
  }
  return found;
}

function failedRead(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const line = message.split('\n')[0] ?? '';
  return `${RECALL_TOOL_NAME} could not read the material: ${line.length > 200 ? `${line.slice(0, 199)}…` : line}`;
}

function unknownRef(given: string): string {
  const ref = given.length > 60 ? `${given.slice(0, 59)}…` : given;
  return (
    `Nothing in this conversation is known by the reference ${JSON.stringify(ref)}. A reference works ` +
    `only in the conversation that showed it, exactly as shown (e.g. "t.Ab12Cd34Ef56"); the material ` +
    `may also be gone (the message was removed from the history, or an archived original expired). ` +
    `Search with ${RECALL_TOOL_NAME} {"search": "<words>"} to find what is still here.`
  );
}
