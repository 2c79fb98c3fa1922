import { SummarizationError } from '../errors/summarization-error';
import { raceAbort } from './abortable';
import type { Summarizer, SummarizerOutput } from './summarizer';

const MEMORY_LINE = /^\s*MEMORY:\s*(.+)$/gm;

export interface ChunkOutcome {
  summary: string;
  memories: string[];
  calls: number;
}

/**
 * One chunk: at most two calls (the retry, only after a failure); blank output or a summary far
 * over its bound is a failure, one a little over is shortened to it (`fitBound`). A call still
 * running when `signal` aborts is abandoned: the caller's abort is rethrown at once; the deadline
 * counts as a failed attempt, and no retry starts after it.
 */
export async function summarizeChunk({
  call,
  callerSignal,
  signal,
  fitBound,
}: {
  call: () => ReturnType<Summarizer>;
  callerSignal: AbortSignal | undefined;
  signal: AbortSignal;
  fitBound: (summary: string) => string | Error;
}): Promise<ChunkOutcome> {
  const errors: unknown[] = [];
  let best: { summary: string; memories: string[] } | undefined;
  let calls = 0;
  for (let attempt = 1; attempt <= 2; attempt++) {
    callerSignal?.throwIfAborted();
    if (signal.aborted) {
      if (errors.length === 0) errors.push(signal.reason);
      break;
    }
    calls++;
    let output: string | SummarizerOutput;
    try {
      output = await raceAbort(call(), signal);
    } catch (error) {
      callerSignal?.throwIfAborted();
      errors.push(error);
      continue;
    }
    const { summary, memories } = readOutput(output);
    if (summary.trim() === '') {
      errors.push(new Error('The summarizer returned blank text.'));
      continue;
    }
    const fitted = fitBound(summary);
    if (fitted instanceof Error) {
      errors.push(fitted);
      continue;
    }
    best = { summary: fitted, memories };
    break;
  }
  if (best === undefined) throw new SummarizationError({ attempts: calls, errors });
  return { summary: best.summary, memories: best.memories, calls };
}

function readOutput(output: string | SummarizerOutput): { summary: string; memories: string[] } {
  if (typeof output === 'string') {
    const memories = [...output.matchAll(MEMORY_LINE)].map((match) => match[1]!.trim());
    const summary = memories.length > 0 ? output.replace(MEMORY_LINE, '').trim() : output.trim();
    return { summary, memories };
  }
  if (output == null || typeof output.summary !== 'string') return { summary: '', memories: [] };
  return { summary: output.summary.trim(), memories: [...(output.memories ?? [])] };
}
