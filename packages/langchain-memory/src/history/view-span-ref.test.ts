/**
 * The history view's last resort (`dropToFit`) names what it drops: its note carries the span's
 * reference, computed over the stored conversation, and the read-back tool reads those messages.
 */
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { createEstimator, recallFromMessages } from '@spillway/core';
import { describe, expect, it } from 'vitest';
import { toNeutralMessages } from '../convert/to-neutral-messages';
import { dropToFit } from './drop-to-fit';
import { viewSpanRef } from './view-span-ref';

describe('dropToFit with viewSpanRef', () => {
  it('the drop note names the dropped messages, and reading it returns them whole', async () => {
    const stored = toNeutralMessages([
      new HumanMessage('Deploy with key-7f3a to eu-west-3.'),
      new AIMessage({ content: '', tool_calls: [{ id: 'c1', name: 'deploy', args: {}, type: 'tool_call' }] }),
      new ToolMessage({ tool_call_id: 'c1', name: 'deploy', content: `deployed ${'ok '.repeat(400)}` }),
      new AIMessage(`Done: ${'details '.repeat(300)}`),
      new HumanMessage('And now the next step, please.'),
    ]);
    const estimator = createEstimator();
    const fitted = dropToFit(stored, {
      budgetTokens: 60,
      countTokens: (list) => estimator.countMessages(list),
      spanRef: viewSpanRef({ stored, originals: stored, secret: 'secret' }),
    });
    expect(fitted.droppedCount).toBe(4);
    const note = fitted.messages[0]!.content as string;
    const [, ref] =
      /^\[System: 4 older messages were truncated due to context limits\] \[ref=(s\.0-4\.[A-Za-z0-9]{12})\]$/.exec(
        note,
      )!;
    const answer = await recallFromMessages({
      input: { ref },
      messages: stored,
      secret: 'secret',
      maxChars: 50_000,
    });
    expect(answer.isError).toBe(false);
    expect(answer.text).toContain('Deploy with key-7f3a to eu-west-3.');
    expect(answer.text).toContain(`Done: ${'details '.repeat(300)}`);
    // Without references (no secret), the note has none.
    const plain = dropToFit(stored, {
      budgetTokens: 60,
      countTokens: (list) => estimator.countMessages(list),
      spanRef: viewSpanRef({ stored, originals: stored, secret: undefined }),
    });
    expect(plain.messages[0]!.content).toBe(
      '[System: 4 older messages were truncated due to context limits]',
    );
  });
});
