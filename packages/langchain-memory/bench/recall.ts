/**
 * The `recall` part of `pnpm bench`: what `spillway_recall` costs per call through the LangChain
 * tool (invoked with a tool call, as `createAgent`'s tool node does; the conversation converted
 * every call), for normal searches and reads next to the worst inputs a model could send
 * (`core/bench/shared/recall-overhead.ts`).
 */
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { RECALL_TOOL_NAME } from '@spillway/core';
import { recallBenchResults, runRecallBench } from '../../core/bench/shared/recall-overhead';
import { recallTool } from '../src/index';

export async function recallBench(): Promise<void> {
  const messages = [
    new HumanMessage('Read the server logs.'),
    ...recallBenchResults().flatMap(({ id, text }) => [
      new AIMessage({ content: '', tool_calls: [{ id, name: 'read_log', args: { id }, type: 'tool_call' }] }),
      new ToolMessage({ tool_call_id: id, name: 'read_log', content: text }),
    ]),
    new AIMessage('I read them.'),
    new HumanMessage('Find the timeouts.'),
  ];
  const tool = recallTool({ messages: () => messages });
  let call = 0;
  const invoke = async (input: unknown) =>
    (
      (await tool.invoke({
        id: `bench_${call++}`,
        name: RECALL_TOOL_NAME,
        args: input as Record<string, unknown>,
        type: 'tool_call',
      })) as unknown as ToolMessage
    ).text;
  const ref = /"ref":"(t\.[A-Za-z0-9]{12})"/.exec(await invoke({ search: 'line 0:' }))![1]!;
  await runRecallBench(
    `${RECALL_TOOL_NAME} through the LangChain tool (invoked with a tool call; ${messages.length} messages, 1.7 MB of tool output, converted every call; median of 5 after a warm-up)`,
    ref,
    invoke,
  );
}
