import { clearToolOutputStrategy } from './clear-tool-output-strategy';
import { contextChefStrategy } from './context-chef-strategy';
import { langchainStrategy } from './langchain-strategy';
import { mastraStrategy } from './mastra-strategy';
import { pruneMessagesStrategy } from './prune-messages-strategy';
import { sendNothingStrategy } from './send-nothing-strategy';
import { slidingWindowStrategy } from './sliding-window-strategy';
import { spillwayStrategy } from './spillway-strategy';
import type { Strategy } from './strategy';

/** A strategy with its place in the tables and its configuration in a sentence. */
function row(strategy: Strategy, configuration: string, headline = true, optIn = false): Strategy {
  return { ...strategy, headline, configuration, ...(optIn ? { optIn } : {}) };
}

/** The share of the window LangChain's summarizer may be sent: its prompt must fit its window. */
const LANGCHAIN_TRIM_RATIO = 0.75;

/**
 * The strategies a run compares, in table order. A new row is one more line; a Spillway variant is
 * one more `spillwayStrategy` with other `options` (any `compactionMiddleware` / `createCompactor`
 * option), e.g.
 *
 *   row(spillwayStrategy({ name: 'Spillway, no pinned rules', options: { pinnedRules: false } }), '…', false),
 */
export function defaultStrategies(): Strategy[] {
  return [
    row(
      spillwayStrategy(),
      '`compactionMiddleware` defaults; the run’s summarizer as an AI SDK model; a stable `conversationId`',
    ),
    row(
      spillwayStrategy({ name: 'Spillway + spillway_recall', recall: true }),
      'the defaults, plus `tools: { spillway_recall: middleware.recallTool() }` on every call; read back with it',
    ),
    row(
      spillwayStrategy({ name: 'Spillway, extractive summarizer', summarizer: 'extractive' }),
      "`summarizer: 'extractive'` (Spillway's own deterministic summarizer, no model)",
    ),
    row(
      spillwayStrategy({
        name: 'Spillway, no structural stages',
        options: { supersedeToolResults: false, collapseExchanges: false, clusterToolResults: false },
      }),
      '`supersedeToolResults: false`, `collapseExchanges: false`, `clusterToolResults: false`',
      false,
    ),
    row(
      contextChefStrategy(),
      "its README's durable setup: `compress: { model }` (the run's summarizer), `truncate: { threshold: 5000, headChars: 500, tailChars: 1000, store }`, `overflow.archive` in the same `Store`, each compression persisted through `onCompress`; read back with its `context` tool",
    ),
    row(
      contextChefStrategy({
        name: '@context-chef, durable + tool-session knobs',
        toolResultStubThreshold: 5000,
        clearKeepRecent: 5,
      }),
      'the durable setup plus its knobs for long tool sessions: `compress.toolResultStubThreshold: 5000` (the summarizer reads stubs, not logs) and `clear: [{ target: "tool-result", keepRecent: 5 }]`; read back with its `context` tool',
    ),
    row(
      contextChefStrategy({ name: '@context-chef, in-flight (quick start)', persist: false, archive: false }),
      "its README's quick start: `compress` and `truncate`, nothing persisted, no store (the README warns this re-expands in sustained conversations)",
      false,
    ),
    row(
      langchainStrategy(),
      '`createAgent` + `summarizationMiddleware`: `trigger: { tokens: 85% of the window }`, `keep: { tokens: 25% }`, its default `trimTokensToSummarize` (4,000) and prompt',
    ),
    row(
      langchainStrategy({
        name: 'LangChain summarization, trim sized to the window',
        trimRatio: LANGCHAIN_TRIM_RATIO,
      }),
      `the same with \`trimTokensToSummarize: ${LANGCHAIN_TRIM_RATIO * 100}% of the window\` (its summarizer sees the whole span, not its last 4,000 tokens; the prompt still fits the summarizer's window)`,
    ),
    row(
      langchainStrategy({
        name: 'LangChain summarization + contextEditing',
        trimRatio: LANGCHAIN_TRIM_RATIO,
        clearToolUsesAt: 0.5,
      }),
      `the sized summarization plus \`contextEditingMiddleware\` with a \`ClearToolUsesEdit\` at 50% of the window (keeps the 3 newest results), \`tokenCountMethod: 'approx'\``,
    ),
    row(
      mastraStrategy(),
      'a real Mastra `Agent` (`@mastra/core`) handed the whole history on every call (no Mastra memory), `TokenLimiterProcessor` at 85% of the window in `inputProcessors` (runs when `--strategies mastra` names it: a whole agent loop per turn is slow)',
      true,
      true,
    ),
    row(
      pruneMessagesStrategy(),
      "`pruneMessages` before `generateText`: `reasoning: 'before-last-message'`, `toolCalls: 'before-last-2-messages'`, `emptyMessages: 'remove'` (it does not look at the window)",
    ),
    row(
      clearToolOutputStrategy(),
      'every tool result older than the latest user message → `[tool result cleared]`; all text kept; oldest whole turns dropped while over the window',
    ),
    row(slidingWindowStrategy(), 'the newest messages that fit the window (o200k), from a user message on'),
    row(sendNothingStrategy(), 'only the system prompt and the current turn'),
    row(
      sendNothingStrategy({ name: 'send nothing + read-back (control)', readBack: true }),
      'only the system prompt and the current turn; read back with a plain search over the whole transcript',
    ),
  ];
}
