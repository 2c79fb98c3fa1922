/**
 * `spillway_recall`'s work without an adapter: `recallFromMessages` over a conversation holding a
 * 1 MB log and text built to trip backtracking engines, for normal searches and reads next to the
 * worst inputs a model could send. Printed as times and ratios to the normal search.
 */
import type { Message } from '../src/index';
import { RECALL_TOOL_NAME, recallFromMessages } from '../src/index';
import { recallBenchResults, runRecallBench } from './shared/recall-overhead';

export async function run(): Promise<void> {
  const messages: Message[] = [
    { role: 'user', content: 'Read the server logs.' },
    ...recallBenchResults().flatMap(({ id, text }): Message[] => [
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: id, toolName: 'read_log', input: { id } }],
      },
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: id, toolName: 'read_log', content: text }],
      },
    ]),
    { role: 'assistant', content: 'I read them.' },
    { role: 'user', content: 'Find the timeouts.' },
  ];
  const found = await recallFromMessages({ input: { search: 'line 0:' }, messages });
  const ref = /"ref":"(t\.[A-Za-z0-9]{12})"/.exec(found.text)![1]!;
  await runRecallBench(
    `${RECALL_TOOL_NAME} in the core (recallFromMessages; ${messages.length} messages, 1.7 MB of tool output; median of 5 after a warm-up)`,
    ref,
    (input) => recallFromMessages({ input, messages }),
  );
}
