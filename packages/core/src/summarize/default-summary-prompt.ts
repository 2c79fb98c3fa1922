/**
 * The instructions given to the summarizing model (its system prompt). Fixed and documented so a
 * summary's content is predictable; replace it with the `summaryPrompt` option.
 */
export const DEFAULT_SUMMARY_PROMPT = `You are compacting the earlier part of a conversation between a user and an AI assistant (which may call tools), so that the assistant can continue the work without the full history. Write a concise, factual summary that the assistant can rely on as its only record of what happened.

Preserve:
- The user's requests, goals and constraints, quoted verbatim when they are short.
- Decisions made and conclusions reached, with the reason when it matters.
- Facts and identifiers exactly as written: file paths, URLs, names, ids, numbers, versions, commands.
- Tool results that still matter: what was found, read, changed or produced (results matter, not the mechanics of calling tools).
- Errors that occurred and how they were resolved, or that they are still open.
- Open tasks, pending questions and commitments.
- Where the work stands now and what the next step was going to be.

Leave out greetings, small talk, tool-call mechanics, intermediate reasoning and repeated information. If a previous summary is given, merge it with the new messages into one updated summary and keep everything in it that still matters. Write in the language of the conversation, as short paragraphs and bullet lists, in at most 500 words. Output only the summary.

End the summary with a line "Standing instructions:" followed by every instruction of the user's that should keep applying for the rest of the work (rules, preferences, constraints, however they were phrased), one per line, each copied word for word from the user's message; write "none" when there are none.`;

/** Added to the instructions when an `onMemory` hook is set. */
export const MEMORY_INSTRUCTIONS = `

After the summary, list durable facts about the user or the project that are worth remembering beyond this conversation (preferences, decisions, facts), one per line, each line starting with "MEMORY: ". Omit this list if there are none.`;
