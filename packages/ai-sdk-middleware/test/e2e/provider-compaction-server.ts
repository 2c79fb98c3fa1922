// biome-ignore-all lint/suspicious/noExplicitAny: provider JSON bodies
/**
 * A loopback stand-in for the providers' own context management, answering the way the APIs
 * document it: when the live input (what follows the latest compaction block or item) is over the
 * trigger the request asks for, the response starts with a new compaction block (Anthropic
 * `compact_20260112`: `{ type: 'compaction', content }`) or compaction item (OpenAI Responses
 * `context_management`: `{ type: 'compaction', id, encrypted_content }`). The provider then reads
 * only what follows its latest block; `liveChars` measures that.
 */
import { DEFAULT_SUMMARY_PROMPT, estimateTokens } from '@spillway/core';
import type { Reply } from './loopback-server';
import type { ProviderKind, ToolCallReply } from './provider-targets';

/** A compaction block or item exactly as it sits in a request body. */
export type ProviderBlock = Record<string, unknown>;

/** The compaction blocks or items in a request body, in order. */
export function blocksIn(kind: ProviderKind, body: any): ProviderBlock[] {
  if (kind === 'anthropic') {
    return (body.messages as any[]).flatMap((message) =>
      Array.isArray(message.content) ? message.content.filter((part: any) => part.type === 'compaction') : [],
    );
  }
  return (body.input as any[]).filter((item) => item.type === 'compaction');
}

/** The trigger the body asks the provider for, in input tokens (none: no context management). */
export function triggerIn(kind: ProviderKind, body: any): number | undefined {
  if (kind === 'anthropic') {
    const edit = body.context_management?.edits?.find((item: any) => item.type === 'compact_20260112');
    return edit === undefined ? undefined : (edit.trigger?.value ?? 150_000);
  }
  return body.context_management?.find((item: any) => item.type === 'compaction')?.compact_threshold;
}

/**
 * The tokens the provider reads: the system prompt and what follows the latest compaction block,
 * after Anthropic's `clear_tool_uses_20250919` when the request asks for it (over its trigger, the
 * results of all but the `keep` latest tool uses are cleared, when that frees `clear_at_least`).
 */
export function liveTokens(kind: ProviderKind, body: any): number {
  const items: any[] = kind === 'anthropic' ? body.messages : body.input;
  let from = 0;
  items.forEach((item, index) => {
    const parts = kind === 'anthropic' ? (Array.isArray(item.content) ? item.content : []) : [item];
    if (parts.some((part: any) => part.type === 'compaction')) from = index;
  });
  const system = kind === 'anthropic' ? body.system : body.instructions;
  const live = items.slice(from);
  const tokens = estimateTokens(JSON.stringify([system ?? '', ...live]));
  const clear =
    kind === 'anthropic'
      ? body.context_management?.edits?.find((edit: any) => edit.type === 'clear_tool_uses_20250919')
      : undefined;
  if (clear === undefined || tokens <= (clear.trigger?.value ?? 100_000)) return tokens;
  const names = new Map<string, string>();
  const results: { tokens: number }[] = [];
  for (const message of live) {
    for (const part of Array.isArray(message.content) ? message.content : []) {
      if (part.type === 'tool_use') names.set(part.id, part.name);
      if (part.type === 'tool_result' && !(clear.exclude_tools ?? []).includes(names.get(part.tool_use_id))) {
        results.push({ tokens: estimateTokens(JSON.stringify(part.content)) });
      }
    }
  }
  const cleared = results
    .slice(0, Math.max(0, results.length - (clear.keep?.value ?? 3)))
    .reduce((sum, result) => sum + result.tokens, 0);
  return cleared >= (clear.clear_at_least?.value ?? 0) ? tokens - cleared : tokens;
}

export const isSummaryBody = (raw: string) => raw.includes(DEFAULT_SUMMARY_PROMPT.slice(0, 60));

/** A provider that compacts when asked to: returns `answer`, led by a new block when triggered. */
export function providerReply(
  kind: ProviderKind,
  body: any,
  { text, toolCalls = [], serial }: { text?: string; toolCalls?: readonly ToolCallReply[]; serial: number },
): { reply: Reply; block: ProviderBlock | undefined } {
  const trigger = triggerIn(kind, body);
  const tokens = liveTokens(kind, body);
  const compact = trigger !== undefined && tokens > trigger;
  const inputTokens = compact ? 2_000 : tokens;
  if (kind === 'anthropic') {
    const block = compact
      ? {
          type: 'compaction',
          content: `<summary>Compaction ${serial}: the user had the agent inspect services; every check was answered.</summary>`,
        }
      : undefined;
    const content = [
      ...(block ? [block] : []),
      ...(text === undefined ? [] : [{ type: 'text', text }]),
      ...toolCalls.map((call) => ({ type: 'tool_use', id: call.id, name: call.name, input: call.input })),
    ];
    return {
      block,
      reply: {
        status: 200,
        body: {
          id: `msg_${serial}`,
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content,
          stop_reason: toolCalls.length > 0 ? 'tool_use' : 'end_turn',
          stop_sequence: null,
          usage: { input_tokens: inputTokens, output_tokens: 6 },
          ...(compact ? { context_management: { applied_edits: [{ type: 'compact_20260112' }] } } : {}),
        },
      },
    };
  }
  const block = compact
    ? { type: 'compaction', id: `cmp_${serial}`, encrypted_content: `gAAAAB${String(serial).repeat(64)}==` }
    : undefined;
  const output: unknown[] = block ? [block] : [];
  if (text !== undefined) {
    output.push({
      type: 'message',
      role: 'assistant',
      id: `msg_${serial}`,
      status: 'completed',
      content: [{ type: 'output_text', text, annotations: [] }],
    });
  }
  for (const call of toolCalls) {
    output.push({
      type: 'function_call',
      id: `fc_${call.id}`,
      call_id: call.id,
      name: call.name,
      arguments: JSON.stringify(call.input),
      status: 'completed',
    });
  }
  return {
    block,
    reply: {
      status: 200,
      body: {
        id: `resp_${serial}`,
        object: 'response',
        created_at: 1_700_000_000,
        status: 'completed',
        model: 'gpt-5',
        output,
        incomplete_details: null,
        usage: {
          input_tokens: inputTokens,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: 6,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: inputTokens + 6,
        },
      },
    },
  };
}
