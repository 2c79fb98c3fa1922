/**
 * Identifiers inside tool output, shaped like the output around them. Data only; no engine code
 * imports it. Split into `tune` and `heldout` by `splitOf(text)`.
 *
 * Slots: `{subject}`, `{subjectKey}` (snake case), `{SUBJECT}` (upper snake case), `{subjectCamel}`,
 * `{value}` (written by the generator for `kind`).
 * - `output`: the kind of tool output the line sits in.
 * - `cue`: the phrase beside the value naming what it is about; questions never carry it.
 */
export interface ToolIdentifierPhrasing {
  readonly output: 'source' | 'log' | 'json' | 'page' | 'grep';
  readonly kind: ToolIdentifierKind;
  readonly text: string;
  readonly cue: string;
}

/** What an identifier in tool output is: decides how its value is written and asked about. */
export type ToolIdentifierKind =
  | 'key'
  | 'endpoint'
  | 'request'
  | 'trace'
  | 'build'
  | 'secret'
  | 'run'
  | 'status-url'
  | 'incident-url'
  | 'queue'
  | 'webhook';

export const TOOL_IDENTIFIER_PHRASINGS: readonly ToolIdentifierPhrasing[] = [
  { output: 'source', kind: 'key', text: "export const {SUBJECT}_KEY = '{value}';", cue: '{SUBJECT}_KEY' },
  {
    output: 'source',
    kind: 'endpoint',
    text: "  {subjectCamel}Endpoint: '{value}', // used by the {subject}",
    cue: '{subjectCamel}Endpoint',
  },
  {
    output: 'log',
    kind: 'request',
    text: '2026-03-02T10:41:07.114Z ERROR {subject} failed request_id={value} status=500',
    cue: '{subject} failed',
  },
  {
    output: 'log',
    kind: 'trace',
    text: '2026-03-02T11:02:45.381Z WARN retrying {subject} trace_id={value} attempt=3',
    cue: 'retrying {subject}',
  },
  {
    output: 'log',
    kind: 'build',
    text: '2026-03-02T08:15:02.907Z INFO {subjectKey} deployed build={value} replicas=4',
    cue: '{subjectKey} deployed',
  },
  {
    output: 'json',
    kind: 'secret',
    text: '    { "name": "{subject}", "secret_ref": "{value}", "status": "active" },',
    cue: '"name": "{subject}"',
  },
  {
    output: 'json',
    kind: 'run',
    text: '    { "job": "{subject}", "last_run_id": "{value}", "state": "failed" },',
    cue: '"job": "{subject}"',
  },
  {
    output: 'json',
    kind: 'webhook',
    text: '    { "service": "{subject}", "webhook_secret_id": "{value}" },',
    cue: '"service": "{subject}"',
  },
  {
    output: 'page',
    kind: 'status-url',
    text: 'The public status page of the {subject} is {value} for customers.',
    cue: 'status page of the {subject}',
  },
  {
    output: 'page',
    kind: 'incident-url',
    text: 'Incidents involving the {subject} are tracked at {value} by the platform team.',
    cue: 'Incidents involving the {subject}',
  },
  {
    output: 'grep',
    kind: 'queue',
    text: 'config/queues.yaml:212:  {subjectKey}_queue: {value}',
    cue: '{subjectKey}_queue',
  },
  {
    output: 'grep',
    kind: 'key',
    text: 'src/config/keys.ts:48:  {subjectCamel}Key: "{value}",',
    cue: '{subjectCamel}Key',
  },
];
