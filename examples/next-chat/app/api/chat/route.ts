import { forwardCompactionEvents } from '@spillway/ai-sdk-middleware';
import {
  convertToModelMessages,
  createUIMessageStream,
  createUIMessageStreamResponse,
  stepCountIs,
  streamText,
} from 'ai';
import type { ChatMessage, ChatRequestBody } from '../../../lib/chat-message';
import { CONTEXT_WINDOW, chatModel, compaction, watchConversation } from '../../../lib/compaction';
import { tools } from '../../../lib/tools';

/** Resolves when no compaction of the conversation is running (or the request was cancelled). */
async function compactionSettled(conversationId: string, signal: AbortSignal): Promise<void> {
  while (compaction.compactor.isCompacting(conversationId) && !signal.aborted) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const SYSTEM =
  'You are a coding agent working on a web service. Use the tools to read files, fetch pages and take screenshots.';

/**
 * The chat endpoint: the whole history comes from the page on every request (as `useChat` sends
 * it), Spillway decides what the model sees, and the page gets Spillway's indicator and notices
 * (`data-spillway` parts) and the context usage of every model call (`data-context-usage`).
 */
export async function POST(request: Request): Promise<Response> {
  const { id, messages, simulateOutage = false } = (await request.json()) as ChatRequestBody;
  const stream = createUIMessageStream<ChatMessage>({
    originalMessages: messages,
    execute: async ({ writer }) => {
      const stopEvents = forwardCompactionEvents({ middleware: compaction, writer, conversationId: id });
      const stopWatching = watchConversation(id, {
        outage: simulateOutage,
        listener: (usage) =>
          writer.write({
            type: 'data-context-usage',
            data: {
              contextWindow: usage.contextWindow ?? CONTEXT_WINDOW,
              tokensBefore: usage.tokensBefore,
              tokensAfter: usage.tokensAfter,
              actions: [...usage.actions],
            },
            transient: true,
          }),
      });
      try {
        const result = streamText({
          model: chatModel,
          system: SYSTEM,
          messages: await convertToModelMessages(messages, { tools }),
          tools,
          stopWhen: stepCountIs(5),
          providerOptions: { spillway: { conversationId: id } },
          abortSignal: request.signal,
        });
        writer.merge(result.toUIMessageStream({ sendReasoning: false }));
        await result.consumeStream();
        // A response that took the conversation over 80% of the window starts a summary in the
        // background. Keep the stream open until it is done, so the page shows the indicator while
        // it is made and sees it replaced when it is ready (or failed).
        await compactionSettled(id, request.signal);
      } finally {
        stopEvents();
        stopWatching();
      }
    },
    onError: (error) => (error instanceof Error ? error.message : 'The request failed.'),
  });
  return createUIMessageStreamResponse({ stream });
}
