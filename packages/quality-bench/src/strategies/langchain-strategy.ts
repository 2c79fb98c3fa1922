import { ContextOverflowError } from '@langchain/core/errors';
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { MemorySaver } from '@langchain/langgraph';
import { isContextOverflowError } from '@spillway/core';
import type { ModelMessage } from 'ai';
import {
  type AgentMiddleware,
  ClearToolUsesEdit,
  contextEditingMiddleware,
  createAgent,
  fakeModel,
  summarizationMiddleware,
} from 'langchain';
import { z } from 'zod/v4';
import type { Conversation } from '../conversation/conversation';
import type { BenchRequest } from '../request/bench-request';
import { fromLangChainMessages } from '../request/from-langchain-messages';
import { createSummaryChatModel } from '../summarizer/summary-models';
import type { StepResult, Strategy } from './strategy';

/** Options of {@link langchainStrategy}. */
export interface LangChainStrategyOptions {
  /**
   * The row label.
   * @default 'LangChain summarizationMiddleware'
   */
  name?: string;
  /**
   * Summarize when the state reaches this share of the window (`trigger: { tokens }`).
   * @default 0.85 (Spillway's compact threshold, so both act at the same point)
   */
  triggerRatio?: number;
  /**
   * Keep this share of the window verbatim (`keep: { tokens }`).
   * @default 0.25 (Spillway's protected window)
   */
  keepRatio?: number;
  /**
   * `trimTokensToSummarize`: how much of the span is sent to the summarizer, as a share of the
   * window; undefined keeps LangChain's default (the last 4,000 tokens of the span).
   * @default undefined
   */
  trimRatio?: number;
  /**
   * Add `contextEditingMiddleware` with a `ClearToolUsesEdit` that clears old tool results (all
   * but the 3 newest, its default) once the request reaches this share of the window.
   * @default undefined (not added)
   */
  clearToolUsesAt?: number;
  /**
   * Keep the agent's state in a `MemorySaver` checkpointer between turns. Without one, the
   * application carries the state itself: it passes the messages the agent last streamed (`values`)
   * plus the new user message. Both give the same requests (a test checks it); the checkpointer
   * serializes the whole state at every step, which makes long runs several times slower.
   * @default false
   */
  checkpointer?: boolean;
}

/**
 * LangChain's `summarizationMiddleware` (optionally with `contextEditingMiddleware`) in a real
 * `createAgent`: each turn is one run of the agent with the user's message (the state carried over
 * from the last turn, or kept by a `MemorySaver`); a `fakeModel` plays the scripted assistant (tool calls, then the answer) and rejects
 * prompts over the window with `ContextOverflowError`; real tools return the scripted results. The
 * summarizer is the run's, as a `fakeModel`; its token counter is the run's steering counter.
 */
export function langchainStrategy({
  name = 'LangChain summarizationMiddleware',
  triggerRatio = 0.85,
  keepRatio = 0.25,
  trimRatio,
  clearToolUsesAt,
  checkpointer = false,
}: LangChainStrategyOptions = {}): Strategy {
  return {
    name,
    summarizes: true,
    readsBack: false,
    async start(context) {
      const { conversation, contextWindow, counter, steering } = context;
      const script = toLangChainScript(conversation);
      const summaryModel = createSummaryChatModel({
        summarizer: context.summarizer,
        contextWindow,
        counter,
      });
      const tokenCounter = (messages: BaseMessage[]) => steering.request(fromLangChainMessages(messages));

      // The agent's model: answers with the scripted assistant message of the current call.
      let pending: AIMessage[] = [];
      let received: { sent: BenchRequest; delivered: boolean }[] = [];
      const agentModel = fakeModel();
      const answer = (messages: BaseMessage[]) => {
        const request = fromLangChainMessages(messages);
        const tokens = counter.request(request);
        if (tokens > contextWindow) {
          received.push({ sent: request, delivered: false });
          return new ContextOverflowError(`prompt is too long: ${tokens} tokens > ${contextWindow} maximum`);
        }
        received.push({ sent: request, delivered: true });
        const next = pending.shift();
        if (next === undefined) throw new Error('the script has no answer for this call');
        return next;
      };
      for (let index = 0; index < conversation.calls.length + 16; index++) agentModel.respond(answer);

      const tools = [...script.toolNames].map((toolName) =>
        tool(
          async (_input: unknown, config: { toolCall?: { id?: string } }) => {
            const result = script.results.get(config.toolCall?.id ?? '');
            if (result === undefined) throw new Error(`no scripted result for ${config.toolCall?.id}`);
            return result;
          },
          { name: toolName, description: `The ${toolName} tool.`, schema: z.looseObject({}) },
        ),
      );
      const middleware: AgentMiddleware[] = [
        summarizationMiddleware({
          model: summaryModel.model,
          trigger: { tokens: Math.floor(contextWindow * triggerRatio) },
          keep: { tokens: Math.floor(contextWindow * keepRatio) },
          tokenCounter,
          ...(trimRatio === undefined
            ? {}
            : { trimTokensToSummarize: Math.floor(contextWindow * trimRatio) }),
        }) as AgentMiddleware,
      ];
      if (clearToolUsesAt !== undefined) {
        middleware.push(
          contextEditingMiddleware({
            edits: [
              new ClearToolUsesEdit({ trigger: { tokens: Math.floor(contextWindow * clearToolUsesAt) } }),
            ],
            tokenCountMethod: 'approx',
          }) as AgentMiddleware,
        );
      }
      const agent = createAgent({
        model: agentModel,
        tools,
        systemPrompt: conversation.system,
        middleware,
        ...(checkpointer ? { checkpointer: new MemorySaver() } : {}),
      });
      const config = { configurable: { thread_id: `bench-${conversation.seed}` }, recursionLimit: 100 };
      // Without a checkpointer: the state as the agent last streamed it.
      let state: BaseMessage[] = [];

      let turnResults: StepResult[] = [];
      return {
        async step(call): Promise<StepResult> {
          if (call.step === 0) {
            const turn = script.turns[call.turn]!;
            pending = [...turn.answers];
            received = [];
            try {
              if (checkpointer) await agent.invoke({ messages: [turn.user] }, config);
              else {
                state = [...state, turn.user];
                const stream = await agent.stream({ messages: state }, { ...config, streamMode: 'values' });
                for await (const values of stream) state = (values as { messages: BaseMessage[] }).messages;
              }
            } catch (error) {
              // Middleware wraps the model's error (`MiddlewareError`, the overflow as its cause).
              if (!isContextOverflowError(error)) throw error;
            }
            turnResults = received.map((item) => ({
              sent: [item.sent],
              delivered: item.delivered ? item.sent : undefined,
            }));
          }
          return turnResults[call.step] ?? { sent: [], delivered: undefined };
        },
        summarizerCalls: summaryModel.calls,
        summarizerTokens: summaryModel.tokens,
      };
    },
  };
}

interface LangChainScript {
  turns: { user: HumanMessage; answers: AIMessage[] }[];
  /** Tool results by tool call id. */
  results: Map<string, ToolMessage>;
  toolNames: Set<string>;
}

/** The conversation as LangChain messages: per turn, the user's message and the model's answers. */
function toLangChainScript(conversation: Conversation): LangChainScript {
  const results = new Map<string, ToolMessage>();
  const toolNames = new Set<string>();
  const turns = conversation.turns.map((turn, turnIndex) => {
    const answers: AIMessage[] = [];
    for (let index = turn.userIndex + 1; index <= turn.endIndex; index++) {
      const message = conversation.messages[index]!;
      if (message.role === 'assistant') answers.push(toAiMessage(message, `answer-${turnIndex}-${index}`));
      if (message.role === 'tool') {
        for (const part of message.content) {
          if (part.type !== 'tool-result') continue;
          toolNames.add(part.toolName);
          results.set(
            part.toolCallId,
            new ToolMessage({
              tool_call_id: part.toolCallId,
              name: part.toolName,
              content: toolContent(part.output) as never,
            }),
          );
        }
      }
    }
    const user = conversation.messages[turn.userIndex]!;
    return {
      user: new HumanMessage({ content: userContent(user) as never, id: `user-${turnIndex}` }),
      answers,
    };
  });
  return { turns, results, toolNames };
}

function toAiMessage(message: Extract<ModelMessage, { role: 'assistant' }>, id: string): AIMessage {
  if (typeof message.content === 'string') return new AIMessage({ content: message.content, id });
  const text = message.content
    .filter((part) => part.type === 'text')
    .map((part) => (part as { text: string }).text)
    .join('\n');
  const toolCalls = message.content
    .filter((part) => part.type === 'tool-call')
    .map((part) => {
      const call = part as { toolCallId: string; toolName: string; input: unknown };
      return {
        id: call.toolCallId,
        name: call.toolName,
        args: call.input as Record<string, unknown>,
        type: 'tool_call' as const,
      };
    });
  return new AIMessage({ content: text, tool_calls: toolCalls, id });
}

function userContent(message: ModelMessage): string | Record<string, unknown>[] {
  if (typeof message.content === 'string') return message.content;
  return (message.content as Record<string, unknown>[]).map((part) => {
    if (part.type === 'text') return { type: 'text', text: part.text };
    return { type: 'image_url', image_url: { url: `data:${part.mediaType};base64,${String(part.data)}` } };
  });
}

function toolContent(output: unknown): string | Record<string, unknown>[] {
  const value = output as { type: string; value: unknown };
  if (value.type === 'text') return String(value.value);
  if (value.type === 'content') {
    return (value.value as Record<string, unknown>[]).map((item) => {
      if (item.type === 'text') return { type: 'text', text: item.text };
      const data = (item.data as { data: string }).data;
      return { type: 'image_url', image_url: { url: `data:${item.mediaType};base64,${data}` } };
    });
  }
  return JSON.stringify(value.value);
}
