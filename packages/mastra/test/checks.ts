import {
  partsOf,
  type RecordedRequest,
  type SessionPromptMessage,
  type SessionTurn,
  sourceFile,
  textTokens,
} from './session';

/** The marker of a head+tail cut (the core's `truncateText`). */
export const TRUNCATION_MARKER = /\.\.\. \[truncated: \d+ chars removed\] \.\.\./;

/**
 * Every fidelity property one request must keep, as a list of violations (empty when it keeps
 * them all): the latest ask is there; no tool call without its result and no result without its
 * call; every tool call of the run in progress is there with its result, whole — or, only when the
 * run's own results are over 60% of the window (no strategy could send them whole), shortened to
 * their head and tail around the cut marker; the request fits the window (provider-side count).
 */
export function requestViolations(
  request: RecordedRequest,
  { session, turn, contextWindow }: { session: readonly SessionTurn[]; turn: number; contextWindow: number },
): string[] {
  const problems: string[] = [];
  if (request.turn !== turn) problems.push(`latest ask of turn ${turn} missing (found ${request.turn})`);
  if (request.tokens > contextWindow) problems.push(`${request.tokens} tokens > window ${contextWindow}`);
  problems.push(...pairViolations(request.prompt));
  const userIndex = lastUserIndex(request.prompt);
  const after = request.prompt.slice(userIndex + 1);
  const callsAfter = new Map<string, { toolName: string; input: unknown }>();
  const resultsAfter = new Map<string, unknown>();
  for (const message of after) {
    for (const part of partsOf(message)) {
      if (part.type === 'tool-call') callsAfter.set(part.toolCallId as string, part as never);
      if (part.type === 'tool-result') resultsAfter.set(part.toolCallId as string, part.output);
    }
  }
  const runReads = request.runCalls
    .map((id) => callsAfter.get(id))
    .filter((call) => call?.toolName === 'read_file')
    .map((call) => call!.input as { path: string; chars: number });
  const runTokens = runReads.reduce((sum, read) => sum + textTokens(sourceFile(read.path, read.chars)), 0);
  const mayShorten = runTokens > 0.6 * contextWindow;
  for (const id of request.runCalls) {
    const call = callsAfter.get(id);
    if (call === undefined) {
      problems.push(`run call ${id} missing`);
      continue;
    }
    const output = resultsAfter.get(id) as { type?: string; value?: unknown } | undefined;
    if (output === undefined) {
      problems.push(`run call ${id}: result missing`);
      continue;
    }
    if (call.toolName === 'read_file') {
      const { path, chars } = call.input as { path: string; chars: number };
      const text = output.type === 'text' || output.type === 'json' ? output.value : undefined;
      const original = sourceFile(path, chars);
      if (text !== original && !(mayShorten && shortenedFrom(text, original))) {
        problems.push(`run result ${id} not whole (run results: ${runTokens} tokens)`);
      }
    }
  }
  void session;
  return problems;
}

/** Tool calls without their result and results without their call, anywhere in the request. */
export function pairViolations(prompt: readonly SessionPromptMessage[]): string[] {
  const problems: string[] = [];
  const open = new Set<string>();
  for (const message of prompt) {
    const parts = partsOf(message);
    if (message.role === 'assistant') {
      if (open.size > 0) problems.push(`calls without results: ${[...open].join(', ')}`);
      open.clear();
      for (const part of parts) if (part.type === 'tool-call') open.add(part.toolCallId as string);
    } else if (message.role === 'tool') {
      for (const part of parts) {
        if (part.type !== 'tool-result') continue;
        if (!open.delete(part.toolCallId as string)) problems.push(`result without call: ${part.toolCallId}`);
      }
    } else if (open.size > 0) {
      problems.push(`calls without results: ${[...open].join(', ')}`);
      open.clear();
    }
  }
  if (open.size > 0) problems.push(`calls without results: ${[...open].join(', ')}`);
  return problems;
}

/**
 * Whether `text` is `original` cut to its head and tail around the marker (and at most a line naming
 * identifiers of the cut part, each in the original).
 */
export function shortenedFrom(text: unknown, original: string): boolean {
  if (typeof text !== 'string' || !TRUNCATION_MARKER.test(text)) return false;
  const [head, marked] = text.split(TRUNCATION_MARKER) as [string, string];
  const annotation = /^\s*\[ref=\S+ offset=(\d+)\]/.exec(marked);
  const annotated = annotation === null ? marked : marked.slice(annotation[0].length);
  // A preview may end with the identifiers its cut part mentioned: each is in the original.
  const mentions = /\n\(the cut part mentioned ([^\n]*)\)$/.exec(annotated);
  const tail = mentions === null ? annotated : annotated.slice(0, mentions.index);
  return (
    text.length < original.length &&
    (mentions?.[1]?.split(', ') ?? []).every((identifier) => original.includes(identifier)) &&
    original.startsWith(head.trimEnd()) &&
    original.endsWith(tail.trimStart())
  );
}

/** Index of the last user message (-1 when there is none). */
export function lastUserIndex(prompt: readonly SessionPromptMessage[]): number {
  for (let index = prompt.length - 1; index >= 0; index--) if (prompt[index]!.role === 'user') return index;
  return -1;
}
