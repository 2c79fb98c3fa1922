import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Prompts } from '@context-chef/core';
import { DEFAULT_SUMMARY_PROMPT } from '@spillway/core';

/**
 * The instructions and framing each framework wraps around what it asks a summarizer to summarize:
 * their default summary prompts and the text around a summary in a request. The lossy summarizer
 * never copies these sentences (a model follows instructions; it does not repeat them).
 */
export async function summaryInstructions(): Promise<string[]> {
  return [
    // Spillway: the default prompt, the framing of the summarizer's input, the summary message.
    DEFAULT_SUMMARY_PROMPT,
    'Previous summary (merge it with the conversation below into one updated summary):',
    'Conversation to summarize:',
    'Summary of the earlier conversation (it stands in for the messages before this point):',
    'Summaries of the earlier conversation, oldest first (they stand in for the messages before this point):',
    // LangChain summarizationMiddleware: its default prompt (not re-exported by `langchain`) and prefix.
    await langchainSummaryPrompt(),
    'Here is a summary of the conversation to date:',
    // context-chef: the compaction instruction and the wrapper around a summary.
    Prompts.CONTEXT_COMPACTION_INSTRUCTION,
    Prompts.getCompactSummaryWrapper(''),
  ];
}

/** LangChain's `DEFAULT_SUMMARY_PROMPT`, read from the module that defines it. */
async function langchainSummaryPrompt(): Promise<string> {
  const require = createRequire(import.meta.url);
  const entry = require.resolve('langchain');
  const file = join(dirname(entry), 'agents', 'middleware', 'summarization.js');
  const module = (await import(pathToFileURL(file).href)) as { DEFAULT_SUMMARY_PROMPT?: unknown };
  if (typeof module.DEFAULT_SUMMARY_PROMPT !== 'string') {
    throw new Error(`langchain's DEFAULT_SUMMARY_PROMPT was not found in ${file}`);
  }
  return module.DEFAULT_SUMMARY_PROMPT;
}
