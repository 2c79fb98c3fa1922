/**
 * The `recall` part of `pnpm bench`: what `spillway_recall` costs per call through the AI SDK tool
 * (`execute` as the SDK calls it, the conversation converted every call), for normal searches and
 * reads next to the worst inputs a model could send (`core/bench/shared/recall-overhead.ts`).
 */
import { RECALL_TOOL_NAME } from '@spillway/core';
import { recallBenchResults, runRecallBench } from '../../core/bench/shared/recall-overhead';
import { recallTool } from '../src/index';

export async function recallBench(): Promise<void> {
  const messages = [
    { role: 'user', content: 'Read the server logs.' },
    ...recallBenchResults().flatMap(({ id, text }) => [
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: id, toolName: 'read_log', input: { id } }],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: id,
            toolName: 'read_log',
            output: { type: 'text', value: text },
          },
        ],
      },
    ]),
    { role: 'assistant', content: [{ type: 'text', text: 'I read them.' }] },
    { role: 'user', content: 'Find the timeouts.' },
  ];
  const tool = recallTool();
  const options = { messages, toolCallId: 'bench', experimental_context: undefined };
  // The log's reference, as a search shows it.
  const found = String(await tool.execute({ search: 'line 0:' }, options));
  const ref = /"ref":"(t\.[A-Za-z0-9]{12})"/.exec(found)![1]!;
  await runRecallBench(
    `${RECALL_TOOL_NAME} through the AI SDK tool (execute; ${messages.length} messages, 1.7 MB of tool output, converted every call; median of 5 after a warm-up)`,
    ref,
    (input) => tool.execute(input, options),
  );
}
