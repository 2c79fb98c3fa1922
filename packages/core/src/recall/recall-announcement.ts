import { RECALL_TOOL_NAME } from './recall-tool';

/**
 * The one line that tells the model about the read-back tool, written once per request when
 * something was cut and the model has the tool: with the summary, else with the note of dropped
 * messages, else after the first cut. Always the same text, so it never breaks a prompt cache.
 */
export const RECALL_ANNOUNCEMENT =
  `[Parts of this conversation were cut to fit the context window; each cut shows a [ref=…]. ` +
  `To see the original, call ${RECALL_TOOL_NAME} with {"ref": "…"} (add "offset" to start further in), ` +
  `or with {"search": "…"} to find a detail.]`;
