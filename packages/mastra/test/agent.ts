/** A real Mastra `Agent` with real Mastra memory (libsql on a file) around the scripted session. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from '@mastra/core/agent';
import { noopLogger } from '@mastra/core/logger';
import type { Processor } from '@mastra/core/processors';
import { LibSQLStore } from '@mastra/libsql';
import { Memory } from '@mastra/memory';
import { type SessionModelOptions, sessionModel, sessionTools } from './session';

/** A folder under the OS temp folder for a libsql file; removed by the returned function. */
export function scratchDatabase(): { url: string; remove: () => void } {
  const folder = mkdtempSync(join(tmpdir(), 'spillway-mastra-'));
  return {
    url: `file:${join(folder, 'memory.db')}`,
    remove: () => rmSync(folder, { recursive: true, force: true }),
  };
}

/**
 * Mastra memory on libsql that hands the whole thread to the processors (no message-count window),
 * or, with `lastMessages: 'default'`, Mastra's own default (the last 10 messages).
 */
export function threadMemory(
  url: string,
  options: { lastMessages?: number | 'default'; maxTokens?: number } = {},
) {
  const { lastMessages = 100_000, maxTokens } = options;
  return new Memory({
    storage: new LibSQLStore({ id: 'spillway-test', url }),
    options: {
      ...(lastMessages === 'default' ? {} : { lastMessages }),
      ...(maxTokens === undefined ? {} : { messageHistory: { maxTokens } }),
    },
  });
}

/** Options of {@link sessionAgent}. */
export interface SessionAgentOptions extends SessionModelOptions {
  inputProcessors?: Processor[];
  errorProcessors?: Processor[];
  memory?: Memory;
  extraTools?: Record<string, unknown>;
  instructions?: string;
}

/** The scripted model inside a real `Agent` with the session's tools. */
export function sessionAgent({
  inputProcessors = [],
  errorProcessors,
  memory,
  extraTools = {},
  instructions = 'You are a coding agent. Never delete user files.',
  ...modelOptions
}: SessionAgentOptions) {
  const scripted = sessionModel(modelOptions);
  const agent = new Agent({
    id: 'session-agent',
    name: 'session agent',
    instructions,
    model: scripted.model,
    tools: { ...sessionTools(), ...extraTools } as never,
    ...(memory === undefined ? {} : { memory }),
    inputProcessors: inputProcessors as never,
    ...(errorProcessors === undefined ? {} : { errorProcessors: errorProcessors as never }),
  });
  // Rejected requests are part of the sessions: Mastra's error log of each would drown the output.
  (agent as unknown as { __setLogger(logger: unknown): void }).__setLogger(noopLogger);
  return { agent, ...scripted };
}
