/**
 * The same seeded agent session through LangChain's own `summarizationMiddleware` and through
 * Spillway's `compactionMiddleware`, side by side. Offline and deterministic: LangChain's
 * `fakeModel` plays the agent (rejecting prompts over the window with `ContextOverflowError`, as a
 * provider does) and the summarizer; the tool is real; the checkpointer is `MemorySaver`.
 *
 * Then `spillway_recall`'s cost per call, normal and adversarial inputs (`bench/recall.ts`).
 *
 * Run: pnpm --filter @spillway/langchain-memory bench (`SPILLWAY_BENCH=session|recall` runs one part)
 */
import type { BaseMessage } from '@langchain/core/messages';
import { MemorySaver } from '@langchain/langgraph';
import { type AgentMiddleware, createAgent, fakeModel, summarizationMiddleware } from 'langchain';
import { compactionMiddleware } from '../src/index';
import {
  createReadFileTool,
  createScriptedAgentModel,
  createSummaryModel,
  promptTokens,
  userMessage,
} from '../test/agent-session';
import { recallBench } from './recall';

const WINDOW = 16_000;
const TURNS = 60;
const SEED = 7;

interface Row {
  label: string;
  tokensSent: number;
  largestPrompt: number;
  modelCalls: number;
  summarizerCalls: number;
  originalsInState: string;
  overflowErrors: number;
  failedTurns: number;
  errorTextInHistory: boolean;
}

type SummaryModel = ReturnType<typeof fakeModel>;

async function run(
  label: string,
  makeMiddleware: (summaryModel: SummaryModel) => AgentMiddleware,
  summaryModel: SummaryModel,
): Promise<Row> {
  let overflowErrors = 0;
  const model = createScriptedAgentModel({ contextWindow: WINDOW, onOverflow: () => overflowErrors++ });
  const agent = createAgent({
    model,
    tools: [createReadFileTool(SEED)],
    systemPrompt: 'You are a careful coding assistant. Read files when asked and report what they export.',
    middleware: [makeMiddleware(summaryModel)],
    checkpointer: new MemorySaver(),
  });
  const config = { configurable: { thread_id: 'bench' } };
  let failedTurns = 0;
  for (let turn = 0; turn < TURNS; turn++) {
    try {
      await agent.invoke({ messages: [userMessage(turn)] }, config);
    } catch {
      failedTurns++;
    }
  }
  const snapshot = (await agent.graph.getState(config)) as { values: { messages: BaseMessage[] } };
  const messages = snapshot.values.messages;
  // Messages the session produced: the user's, the model's and the tools'. A summary is not one.
  const produced = model.calls.length > 0 ? countProduced(model) : 0;
  const originals = messages.filter(
    (message) => !message.text.startsWith('Here is a summary of the conversation'),
  );
  const sent = model.calls.map((call) => promptTokens(call.messages));
  return {
    label,
    tokensSent: sent.reduce((sum, tokens) => sum + tokens, 0),
    largestPrompt: Math.max(...sent),
    modelCalls: model.callCount,
    summarizerCalls: summaryModel.callCount,
    originalsInState: `${originals.length} / ${produced}`,
    overflowErrors,
    failedTurns,
    errorTextInHistory: messages.some((message) => message.text.includes('Error generating summary')),
  };
}

/** User messages + answered model calls + tool results, as the session produced them. */
function countProduced(model: ReturnType<typeof createScriptedAgentModel>): number {
  let produced = TURNS;
  for (const call of model.calls) {
    if (promptTokens(call.messages) > WINDOW) continue; // rejected: produced nothing
    const last = call.messages[call.messages.length - 1];
    produced += last !== undefined && last.type === 'tool' ? 1 : 2; // an answer; or a tool call and its result
  }
  return produced;
}

function failingSummaryModel(): SummaryModel {
  return fakeModel().alwaysThrow(new Error('summarizer unavailable (503)'));
}

const langchainMiddleware = (summaryModel: SummaryModel) =>
  summarizationMiddleware({
    model: summaryModel,
    trigger: { tokens: Math.floor(WINDOW * 0.85) },
    keep: { messages: 20 },
  });
const langchainTunedMiddleware = (summaryModel: SummaryModel) =>
  summarizationMiddleware({
    model: summaryModel,
    trigger: { tokens: Math.floor(WINDOW * 0.85) },
    keep: { tokens: Math.floor(WINDOW * 0.25) },
  });
// The same token count the fake provider rejects by, so the comparison is not a counter contest.
const langchainSameCounterMiddleware = (summaryModel: SummaryModel) =>
  summarizationMiddleware({
    model: summaryModel,
    trigger: { tokens: Math.floor(WINDOW * 0.85) },
    keep: { tokens: Math.floor(WINDOW * 0.25) },
    tokenCounter: promptTokens,
  });
const spillwayMiddleware = (summaryModel: SummaryModel) =>
  compactionMiddleware({ contextWindow: WINDOW, model: summaryModel }) as unknown as AgentMiddleware;

/** The session side by side, printed as a table. */
async function sessionBench(): Promise<void> {
  const rows: Row[] = [
    await run('LangChain summarizationMiddleware', langchainMiddleware, createSummaryModel()),
    await run('LangChain, keep 4,000 tokens', langchainTunedMiddleware, createSummaryModel()),
    await run('LangChain, 4,000 tokens, same counter', langchainSameCounterMiddleware, createSummaryModel()),
    await run('Spillway compactionMiddleware', spillwayMiddleware, createSummaryModel()),
    await run('LangChain, summarizer down', langchainMiddleware, failingSummaryModel()),
    await run('Spillway, summarizer down', spillwayMiddleware, failingSummaryModel()),
  ];

  console.log(
    `\n${TURNS}-turn agent session (seed ${SEED}), window ${WINDOW.toLocaleString('en-US')} tokens, read_file outputs of 2-24k chars\n`,
  );
  const columns: [string, (row: Row) => string][] = [
    ['', (row) => row.label],
    ['tokens sent', (row) => row.tokensSent.toLocaleString('en-US')],
    ['largest prompt', (row) => row.largestPrompt.toLocaleString('en-US')],
    ['model calls', (row) => String(row.modelCalls)],
    ['summarizer calls', (row) => String(row.summarizerCalls)],
    ['originals in state', (row) => row.originalsInState],
    ['overflow errors', (row) => String(row.overflowErrors)],
    ['failed turns', (row) => String(row.failedTurns)],
    ['error text as history', (row) => (row.errorTextInHistory ? 'yes' : 'no')],
  ];
  const cells = [columns.map(([title]) => title), ...rows.map((row) => columns.map(([, cell]) => cell(row)))];
  const widths = columns.map((_, index) => Math.max(...cells.map((line) => line[index]!.length)));
  const format = (line: string[]) =>
    `| ${line.map((cell, index) => (index === 0 ? cell.padEnd(widths[index]!) : cell.padStart(widths[index]!))).join(' | ')} |`;
  console.log(format(cells[0]!));
  console.log(
    `|${widths.map((width, index) => (index === 0 ? '-'.repeat(width + 2) : `${'-'.repeat(width + 1)}:`)).join('|')}|`,
  );
  for (const line of cells.slice(1)) console.log(format(line));
  console.log(
    '\nLangChain rows: trigger at 85% of the window; keep 20 messages (its default) or 4,000 tokens; "same counter"\n' +
      'gives it the token count the fake provider rejects by (its default counter is an approximation). Spillway: defaults.',
  );
  console.log(
    '\ntokens: the estimate of every prompt the agent model received (@spillway/core estimator, the same for both).',
  );
}

const only = process.env.SPILLWAY_BENCH; // 'session' or 'recall' to run one part
if (only !== 'recall') await sessionBench();
if (only !== 'session') await recallBench();
