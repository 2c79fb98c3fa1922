import type { NeedleKind } from '../conversation/conversation';

/**
 * The questions a later turn asks about a planted fact, by its kind and what about it (the needle's
 * `topic.detail`). `{ref}` is a reference to the subject as someone would say it (see
 * `subjectReference`), `{setting}` the setting's name. Rules bring their own questions (written
 * with each rule phrasing). Data only.
 */
export const QUESTION_TEMPLATES: Readonly<
  Record<Exclude<NeedleKind, 'constraint'>, Record<string, readonly string[]>>
> = {
  'identifier-user': {
    deploy: [
      'Which deploy id did I give for {ref}?',
      'What was the id of the deployment of {ref} I mentioned?',
      'Remind me which release of {ref} I said caused trouble.',
    ],
    path: [
      'Which settings file does {ref} load?',
      'Where is the config of {ref} on disk?',
      'What path did I say {ref} reads its configuration from?',
    ],
    url: [
      'Where are the graphs for {ref}?',
      "What's the dashboard link for {ref}?",
      'Which Grafana URL did I share for {ref}?',
    ],
    port: ['Which port does {ref} listen on in staging?', 'What port did I give for {ref}?'],
    count: [
      'How many records did {ref} process last night?',
      'What was the record count of the last run of {ref}?',
    ],
    ticket: ['Which ticket tracks the work on {ref}?', "What's the ticket number for {ref}?"],
    branch: ['Which branch has my fix for {ref}?', 'Where did I push the work in progress on {ref}?'],
    host: ['Which host does {ref} run on now?', 'Where was {ref} moved to?'],
  },
  'identifier-tool': {
    key: ['What key is defined for {ref} in the code?', 'Which key does the source use for {ref}?'],
    endpoint: [
      'Which endpoint URL is configured for {ref} in the source?',
      'What endpoint does the code use for {ref}?',
    ],
    request: [
      'What was the request id of the failed {ref} call in the logs?',
      'Which request id did the error for {ref} have?',
    ],
    trace: ['What trace id showed up when {ref} was retried?', 'Which trace did the retry of {ref} log?'],
    build: [
      'Which build of {ref} was deployed according to the logs?',
      'What build id did the deploy log show for {ref}?',
    ],
    secret: ['What secret reference does the API list for {ref}?', 'Which secret belongs to {ref}?'],
    run: [
      'What was the last run id of {ref} in the API response?',
      'Which run of {ref} failed according to the API?',
    ],
    webhook: ['Which webhook secret id does {ref} have?', 'What webhook secret is listed for {ref}?'],
    'status-url': ['Where is the public status page for {ref}?', "What's the status page URL of {ref}?"],
    'incident-url': [
      'Where are incidents for {ref} tracked?',
      'Which incident link did the docs give for {ref}?',
    ],
    queue: [
      'Which queue name is configured for {ref}?',
      'What queue does {ref} use according to the config?',
    ],
  },
  decision: {
    decision: [
      'What did we decide for {ref}, and why?',
      'Which option did we pick for {ref} over the alternative?',
      'Why did we go with what we chose for {ref}?',
    ],
  },
  superseded: {
    setting: [
      'What is the current {setting} for {ref}?',
      'Where did we end up on the {setting} of {ref}?',
      'Which {setting} should {ref} use now?',
    ],
  },
  implicit: {
    approves: ['Who has to approve changes to {ref}?', 'Whose sign-off do we need for {ref}?'],
    built: ['Who originally wrote {ref}?', 'Who built {ref} in the first place?'],
    'on-call': ['Who gets paged when {ref} breaks?', 'Who is on call for {ref}?'],
    owns: ['Who owns {ref}?', 'Which person and team does {ref} belong to?'],
    informed: ['Who wants to be told about changes to {ref}?', 'Whom should we warn before touching {ref}?'],
  },
};
