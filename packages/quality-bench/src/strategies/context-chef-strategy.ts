import { createMiddleware } from '@context-chef/ai-sdk-middleware';
import {
  dispatchContextTool,
  InMemoryBackend,
  type Message,
  Offloader,
  resolveContextToolPolicy,
  Store,
} from '@context-chef/core';
import type { LanguageModelMiddleware, ModelMessage } from 'ai';
import { createSummaryLanguageModel } from '../summarizer/summary-models';
import type { TokenCounter } from '../tokens/token-counter';
import { createAiSdkSession } from './ai-sdk-session';
import type { Strategy } from './strategy';
import { toolReadBack } from './tool-read-back';

/** Options of {@link contextChefStrategy}. */
export interface ContextChefStrategyOptions {
  /**
   * The row label.
   * @default '@context-chef/ai-sdk-middleware'
   */
  name?: string;
  /**
   * Keep what is cut readable: truncated tool results in an in-memory `Store` (`truncate.store`,
   * `context://vfs/` URIs in the markers) and every compressed span in the same store
   * (`overflow.archive`, a `context://archive/` citation in the summary), read back with
   * context-chef's own `context` tool (`dispatchContextTool`: `search`, `view`).
   * @default true
   */
  archive?: boolean;
  /**
   * Persist each compression in the application's message store through `onCompress` (the
   * compressed span is replaced by the summary, as context-chef's README advises for sustained
   * conversations); without it compression is in-flight only: each request re-expands the history
   * and compression fires again (the README's quick start).
   * @default true
   */
  persist?: boolean;
  /**
   * `compress.toolResultStubThreshold`: tool results longer than this many characters reach the
   * summarizer as a one-line stub (its knob for tool-heavy sessions: the summarizer reads the
   * dialogue, not the logs). Undefined: off (its default).
   * @default undefined
   */
  toolResultStubThreshold?: number;
  /**
   * `clear: [{ target: 'tool-result', keepRecent }]`: every tool result but the `keepRecent`
   * newest becomes `[Old tool result content cleared]` (after compression). Undefined: off.
   * @default undefined
   */
  clearKeepRecent?: number;
}

const silentLogger = { warn: () => {}, error: () => {}, info: () => {}, debug: () => {}, log: () => {} };

/**
 * `@context-chef/ai-sdk-middleware` (`createMiddleware`) as its README configures it (compression
 * with a summary model, tool results over 5,000 characters cut to 500 + 1,000), given the run's
 * window, summarizer and steering token counter; by default with compressions persisted through
 * `onCompress` and with its store and archive, so its read-back tool can be scored.
 */
export function contextChefStrategy({
  name = '@context-chef/ai-sdk-middleware',
  archive = true,
  persist = true,
  toolResultStubThreshold,
  clearKeepRecent,
}: ContextChefStrategyOptions = {}): Strategy {
  return {
    name,
    summarizes: true,
    readsBack: archive,
    async start(context) {
      const summaryModel = createSummaryLanguageModel({
        summarizer: context.summarizer,
        contextWindow: context.contextWindow,
        counter: context.counter,
      });
      const store = new Store(new InMemoryBackend());
      const archiveView = store.namespace('archive');
      const middleware = createMiddleware({
        contextWindow: context.contextWindow,
        compress: {
          model: summaryModel.model as never,
          ...(toolResultStubThreshold === undefined ? {} : { toolResultStubThreshold }),
        },
        ...(clearKeepRecent === undefined
          ? {}
          : { clear: [{ target: 'tool-result' as const, keepRecent: clearKeepRecent }] }),
        truncate: { threshold: 5000, headChars: 500, tailChars: 1000, ...(archive ? { store } : {}) },
        ...(archive
          ? {
              overflow: {
                archive: { store: async (serialized: string) => (await archiveView.put(serialized)).uri },
              },
            }
          : {}),
        tokenizer: irTokenizer(context.steering),
        logger: silentLogger as never,
        ...(persist
          ? {
              // The span the summary replaced, as prompt messages: that many stored messages (the
              // system prompt aside) give way to the summary, as a user message.
              onCompress: (
                summary: string,
                _count: number,
                { compressedMessages }: { compressedMessages: unknown[] },
              ) => {
                const span = compressedMessages
                  .map((message) => (message as { role: string }).role)
                  .filter((role) => role !== 'system');
                // The span is the head of the stored conversation, message for message.
                const head = stored.slice(0, span.length).map((message) => message.role);
                if (head.join() !== span.join()) {
                  // context-chef swallows what onCompress throws: report it after the call.
                  mismatch = `onCompress: the compressed span (${span.join()}) is not the stored head (${head.join()})`;
                }
                stored.splice(0, span.length, { role: 'user', content: summary });
              },
            }
          : {}),
      });
      // The application's message store (used when compressions are persisted).
      const stored: ModelMessage[] = [];
      let synced = 0;
      let mismatch: string | undefined;
      const session = createAiSdkSession({
        context,
        middleware: middleware as LanguageModelMiddleware,
        prepareMessages: persist
          ? (history) => {
              stored.push(...history.slice(synced));
              synced = history.length;
              return stored;
            }
          : undefined,
        afterCall: async () => {
          if (mismatch !== undefined) throw new Error(mismatch);
        },
      });
      const host = {
        store,
        offloader: new Offloader({ threshold: 5000, store, storageDir: '', logger: silentLogger as never }),
        policy: resolveContextToolPolicy(),
        memory: undefined,
        requestNewContext: () => {},
      };
      const call = (args: Record<string, unknown>) =>
        dispatchContextTool(host as never, { name: 'context', arguments: args }) as Promise<string>;
      return {
        step: session.step,
        readBack: archive
          ? toolReadBack({
              toolName: 'context',
              referencePattern: /context:\/\/(?:vfs|archive)\/[\w.-]+/,
              // One search call covers one namespace; the archive holds every compressed span. Its
              // search takes one literal string (a case-insensitive substring).
              search: async (query) => {
                const output = await call({
                  command: 'search',
                  path: 'context://archive/',
                  query: query.literal,
                });
                const hits = [...output.matchAll(/^- (context:\/\/archive\/[\w.-]+)(?::\s?(.*))?$/gm)]
                  .filter((match) => match[1] !== 'context://archive/')
                  .map((match) => ({ reference: match[1]!, line: match[2] ?? '' }));
                return { output, hits };
              },
              read: (reference) => call({ command: 'view', path: reference }),
              searchInput: (query) => ({
                command: 'search',
                path: 'context://archive/',
                query: query.literal,
              }),
              readInput: (reference) => ({ command: 'view', path: reference }),
            })
          : undefined,
        summarizerCalls: summaryModel.calls,
        summarizerTokens: summaryModel.tokens,
      };
    },
  };
}

/** context-chef's `tokenizer` option, counting its messages with the benchmark's counter. */
function irTokenizer(counter: TokenCounter): (messages: Message[]) => number {
  return (messages) => {
    let total = 0;
    for (const message of messages) {
      total +=
        4 +
        counter.text(typeof message.content === 'string' ? message.content : JSON.stringify(message.content));
      for (const call of message.tool_calls ?? []) total += 3 + counter.text(call.function.arguments);
      for (const attachment of (message as { attachments?: { data?: string; mediaType?: string }[] })
        .attachments ?? []) {
        total += counter.part({
          type: 'image',
          data: attachment.data ?? '',
          mediaType: attachment.mediaType ?? '',
        });
      }
    }
    return total;
  };
}
