import type { Message, ToolCallPart, ToolResultPart } from '../message/message';
import { toolCallsOf } from '../message/message-parts';

/** Lookups by tool-call id over a history (see {@link historyLookups}). */
export interface HistoryLookups {
  /** The call a result answers. */
  callOf(toolCallId: string): ToolCallPart | undefined;
  /** The history's own result under the same id (a structural stage may have replaced `result`). */
  originalOf(result: ToolResultPart): ToolResultPart;
}

/**
 * The tool calls and results of a history by id, each index built when it is first asked for:
 * forms and folds are remembered across requests, so most requests never ask.
 */
export function historyLookups(history: readonly Message[]): HistoryLookups {
  let calls: Map<string, ToolCallPart> | undefined;
  let results: Map<string, ToolResultPart> | undefined;
  return {
    callOf(toolCallId) {
      if (calls === undefined) {
        calls = new Map();
        for (const message of history)
          for (const call of toolCallsOf(message)) calls.set(call.toolCallId, call);
      }
      return calls.get(toolCallId);
    },
    originalOf(result) {
      if (results === undefined) {
        results = new Map();
        for (const message of history) {
          if (!Array.isArray(message.content)) continue;
          for (const part of message.content)
            if (part?.type === 'tool-result') results.set(part.toolCallId, part);
        }
      }
      return results.get(result.toolCallId) ?? result;
    },
  };
}
