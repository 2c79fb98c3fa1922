/**
 * The read-back ("recall") tool: one name, one description and one input schema shared by every
 * adapter (AI SDK, LangChain, the MCP proxy), so a model meets the same tool wherever Spillway cut
 * something out of its context.
 */

/** The name of the read-back tool in every adapter. */
export const RECALL_TOOL_NAME = 'spillway_recall';

/** The description of the read-back tool, the same in every adapter. */
export const RECALL_TOOL_DESCRIPTION =
  'Reads back or searches material that was cut from this conversation to keep it within the context ' +
  'window. Every cut (a truncation marker, a placeholder, a summary) names a `ref`. ' +
  'Read: pass `ref`, and optionally `offset` and `length` (in characters), to get that part of the ' +
  'original text exactly; each page says which characters it holds and where the next page starts. ' +
  'Search: pass `search` (plain text, or a case-insensitive regular expression in RE2 syntax: no ' +
  'lookaround or backreferences; at most 1000 characters) to list the matching lines with their `ref` ' +
  'and character `offset`, within `ref` when it is given, else across all cut material of this ' +
  'conversation; then read around a match with that `ref` and `offset`. A search that stops at its ' +
  'time or size limit says where, and the call that goes on from there.';

/** A JSON Schema property of {@link recallToolInputSchema}. */
export interface RecallToolInputProperty {
  type: 'string' | 'integer';
  description: string;
  minimum?: number;
  minLength?: number;
  default?: number;
}

/** The type of {@link recallToolInputSchema}: a plain JSON Schema object. */
export interface RecallToolInputSchema {
  type: 'object';
  properties: {
    ref: RecallToolInputProperty;
    offset: RecallToolInputProperty;
    length: RecallToolInputProperty;
    search: RecallToolInputProperty;
  };
  additionalProperties: false;
  [key: string]: unknown;
}

/**
 * The input schema of the read-back tool, as plain JSON Schema: usable as an MCP tool's
 * `inputSchema` and, through `jsonSchema()`, as an AI SDK tool's `inputSchema`. Neither `ref` nor
 * `search` is required by the schema (one of them is, which `parseRecallInput` checks, with a message
 * the model can act on). Treat it as read-only.
 */
export const recallToolInputSchema: RecallToolInputSchema = {
  type: 'object',
  properties: {
    ref: {
      type: 'string',
      minLength: 1,
      description:
        'The reference printed in a truncation marker, a placeholder or a summary. Required to read; optional to search (limits the search to that material).',
    },
    offset: {
      type: 'integer',
      minimum: 0,
      default: 0,
      description:
        'Read: the first character to return. Search within `ref`: where the search starts. Search without `ref`: where a search of all the material goes on, as an answer gives it. In characters; default 0.',
    },
    length: {
      type: 'integer',
      minimum: 1,
      description:
        'Characters to read (or, with `search` and `ref`, to search from `offset`). Default and maximum: what fits the tool’s budget.',
    },
    search: {
      type: 'string',
      minLength: 1,
      description:
        'Plain text, or a regular expression in RE2 syntax (as in JavaScript, without lookaround or backreferences), matched case-insensitively line by line (^ and $ match at line ends); text that is not a valid pattern is searched as is. At most 1000 characters.',
    },
  },
  additionalProperties: false,
};
