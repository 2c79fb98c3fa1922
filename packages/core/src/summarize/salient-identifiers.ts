/** Options of {@link salientIdentifiers}. */
export interface SalientIdentifiersOptions {
  /**
   * The most identifiers returned.
   * @default 12
   */
  maxCount?: number;
  /**
   * The most characters the identifiers may take together (joined with `, `).
   * @default 240
   */
  maxChars?: number;
  /** Identifiers not to return (e.g. what the tool call's arguments already show). */
  exclude?: ReadonlySet<string>;
}

/**
 * The kinds of identifier, most telling first. Each pattern is global; a token is classed by the
 * first pattern that matches it.
 */
const KINDS: readonly RegExp[] = [
  /\bhttps?:\/\/[^\s<>"'`)\]]+/g, // URLs
  // e-mail addresses (and ids below) start only where a run of their characters starts: from every
  // word boundary inside a long run (base64url, 1 MB in a Gmail API result) each try read to its end
  /(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b/g,
  /(?:~|\.{1,2})?(?:\/[\w.@+-]+){2,}\/?|\b[A-Za-z]:\\[^\s"'<>|]+/g, // paths
  // ids: letters and digits joined by - or _ (dep-7f3a9c2e, req_91x2), UUIDs, long hex (commits);
  // not a segment of a path or a dotted name (`part-3` of `src/ledger/part-3.ts`)
  /(?<![\w-])(?<![\w-][./])[-_]*(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)+\b|\b[0-9a-f]{8,}\b/g,
  /\b[A-Z][A-Z0-9]{1,9}-\d+\b/g, // tickets (ABC-123)
  // (errno-style codes, not log levels and capitalised words: ERROR, EXIT, EVENT…)
  /\b(?:(?!(?:ERRORS?|EXCEPTIONS?|EVENTS?|EXIT|EXPORT|EMPTY|ENABLED|END|ENTRY|ENV)\b)E[A-Z]{3,}|ERR_[A-Z0-9_]+|[A-Z][A-Za-z]*(?:Error|Exception)|E\d{3,5})\b/g, // error codes and classes
  // file names and hosts: a run of names joined by `.` and `/`, from where the run starts (not
  // after a name and a separator; `./config.yaml` is fine) and taken whole (each lookahead and
  // backreference is possessive, so a long run that is no file name costs one pass), then checked
  // by `isName` (its last part must end in a known extension or domain)
  /(?<![\w-])(?<![\w-][./])(?=([\w-]{2,}))\1(?=((?:[./][\w-]+)+))\2/g,
  // numbers with a unit, and version numbers
  /\b\d+(?:\.\d+)?\s?(?:ms|s|sec|min|h|KB|MB|GB|TB|KiB|MiB|GiB|kb|mb|gb|%|px|rps|qps)\b|(?<![\w.])v?\d+(?:\.\d+){1,3}\b/g,
  /\b\d{3,}\b/g, // numbers of three or more digits (ports, counts, status codes)
];

/** The index in `KINDS` of numbers with units and versions. */
const VERSION_KIND = KINDS.length - 2;
/** The index in `KINDS` of e-mail addresses, paths and ids, and of file names. */
const EMAIL_KIND = 1;
const PATH_KIND = 2;
const ID_KIND = 3;
const FILE_NAME_KIND = KINDS.length - 3; // file names and hosts

/**
 * What may follow the last dot of a file name (`pay.ts`, `values.yaml`) or a host (`example.com`):
 * without one, `auth.queue` is a member access in code, not a name a reader looks up.
 */
const FILE_NAME_ENDINGS = new Set(
  (
    'ts tsx mts cts js jsx mjs cjs json jsonl md mdx txt csv tsv yaml yml toml ini cfg conf ' +
    'xml html htm css scss sass less svg png jpg jpeg gif webp pdf zip gz tgz tar bz2 xz ' +
    'py pyi ipynb rb go rs java kt kts scala swift c h cc cpp cxx hpp cs fs php pl lua r dart ex exs ' +
    'erl hs clj vue svelte astro sql prisma graphql gql proto sh bash zsh fish ps1 bat cmd ' +
    'dockerfile tf tfvars hcl nix gradle mk cmake wasm so dll exe jar war whl gem ' +
    'pem crt p12 bak sqlite parquet avro com org net edu gov'
  ).split(' '),
);
/**
 * Endings that are also common member names in code (`console.log`, `process.env`, `req.app`): a
 * name with one of them counts when it is plainly not a member access — a stem with `-`, `_` or a
 * digit (`app-2.log`, `db-primary.internal`), a directory (`logs/server.log`) or more than one dot
 * (`api.example.io`).
 */
const AMBIGUOUS_ENDINGS = new Set(
  'log env lock key pub bin db tmp pid sock io dev app ai co int internal local localhost cloud'.split(' '),
);
/** A stem that is not a plain word: it has a separator, a digit, a directory or another dot. */
const MARKED_STEM = /[-_\d/.]/;

/**
 * A path segment that is encoded data (base64 and the like), not a name: upper and lower case
 * letters and digits mixed, with no `.`, `-` or `_` to separate words.
 */
const ENCODED_SEGMENT = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)[A-Za-z0-9+=]{6,}$/;
/** Plain numbers (distinct; on problem lines and off them, counted apart) up to which a text's are listed. */
const MAX_PLAIN_NUMBERS = 3;
/** Paths shorter than this (`/8/ed`) are noise, not names. */
const MIN_PATH_CHARS = 6;

/** Whether an identifier of `kind` names something a reader could look up. */
function isName(identifier: string, kind: number): boolean {
  if (kind === FILE_NAME_KIND) {
    const dot = identifier.lastIndexOf('.');
    if (dot <= identifier.lastIndexOf('/')) return false;
    const ending = identifier.slice(dot + 1).toLowerCase();
    if (!/^[a-z][a-z0-9]{0,9}$/.test(ending)) return false;
    if (FILE_NAME_ENDINGS.has(ending)) return true;
    return AMBIGUOUS_ENDINGS.has(ending) && MARKED_STEM.test(identifier.slice(0, dot));
  }
  if (kind === PATH_KIND) {
    return (
      identifier.length >= MIN_PATH_CHARS &&
      !identifier.split('/').some((segment) => ENCODED_SEGMENT.test(segment))
    );
  }
  return true;
}
/** A number with one decimal point and nothing else. */
const BARE_DECIMAL = /^\d+\.\d+$/;
/** An ISO date, with or without the hour that follows it (`2026-03-02T10`). */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}(?:T\d{2})?$/;

/**
 * Lines that report something going wrong: their identifiers come first. The word must stand
 * alone: inside a name (`src/note-error.ts`, `on_failure`, `error.log`) it reports nothing, and a
 * listing of such names would otherwise crowd out the one id beside them.
 */
const SALIENT_LINE =
  /(?<![\w./\\-])(?:error|errors|fail(?:ed|ure|ing)?|exception|warn(?:ing)?|fatal|panic|denied|refused|timed? ?out|invalid|missing|not found|unexpected|critical|rejected|abort(?:ed)?)(?![\w/\\-]|\.\w)/i;

/**
 * The identifiers a reader of `text` would most want kept when the text itself is cleared: URLs,
 * e-mail addresses, paths, ids (letters and digits joined by `-`/`_`, UUIDs, hashes), tickets, error
 * codes, file names and hosts, numbers with units and versions, numbers of three or more digits.
 * Those on lines that report a problem come first; then the kinds take turns in that order (the
 * first of each kind, then the second of each…), each kind's by first appearance, so that one kind
 * (the paths of a grep) cannot crowd out the rest (the one id among them). The members of a series
 * of ids (three or more of one stem with a short suffix: `ledger-1` … `ledger-9`, the instances a log
 * names on every line) come after all the others. Repeats and identifiers
 * contained in one already taken are skipped, and a longer form of one taken (`src/a/b.ts` after
 * `/a/b.ts`) takes its place. Only names a reader could look up: a dotted name must end in a known
 * file extension or domain (`auth.queue` is a member access), a path must not be encoded data
 * (base64), and plain numbers are listed only when the text has at most three of them (on problem
 * lines and off them, counted apart): a data table or a file of constants names none. Deterministic and linear in the text.
 */
export function salientIdentifiers(
  text: string,
  { maxCount = 12, maxChars = 240, exclude }: SalientIdentifiersOptions = {},
): string[] {
  if (typeof text !== 'string' || text.length === 0 || maxCount <= 0) return [];
  let candidates: { identifier: string; rank: number; at: number }[] = [];
  const seen = new Set<string>();
  let lineStart = 0;
  for (const line of text.split('\n')) {
    const salient = line.length < 2_000 && SALIENT_LINE.test(line);
    KINDS.forEach((pattern, kind) => {
      pattern.lastIndex = 0;
      for (const match of line.matchAll(pattern)) {
        let identifier = match[0].replace(/[.,;:!?)]+$/, '');
        // E-mail addresses and ids start with their run, which may open with punctuation.
        if (kind === EMAIL_KIND || kind === ID_KIND) identifier = identifier.replace(/^[-_.+]+/, '');
        if (identifier.length < 3 || identifier.length > 120 || seen.has(identifier)) continue;
        // A timestamp (or the date-and-hour piece of one) tells nothing a reader would look up.
        if (TIMESTAMP.test(identifier)) continue;
        if (exclude?.has(identifier)) continue;
        // Not a name (a member access, base64): a later kind may still take it (`v1.2.3`).
        if (!isName(identifier, kind)) continue;
        // A bare decimal (887.63) is a number, not a version: ranked with the plain numbers.
        const rankedAs = kind === VERSION_KIND && BARE_DECIMAL.test(identifier) ? KINDS.length - 1 : kind;
        seen.add(identifier);
        candidates.push({
          identifier,
          rank: (salient ? 0 : KINDS.length) + rankedAs,
          at: lineStart + match.index,
        });
      }
    });
    lineStart += line.length + 1;
  }
  demoteSeries(candidates);
  // Plain numbers are telling when they are few (a port, a count, the status on an error line); a
  // text with many of them (a data table, prices, a file's constants) names none, on the lines that
  // report a problem and off them alike (each counted apart).
  for (const rank of [KINDS.length - 1, 2 * KINDS.length - 1]) {
    if (candidates.filter((candidate) => candidate.rank === rank).length > MAX_PLAIN_NUMBERS) {
      candidates = candidates.filter((candidate) => candidate.rank !== rank);
    }
  }
  const chosen: string[] = [];
  let chars = 0;
  for (const { identifier } of takingTurns(candidates)) {
    if (chosen.length >= maxCount) break;
    if (chosen.some((taken) => taken.includes(identifier))) continue;
    // A longer form of one already taken (`src/a/b.ts` after `/a/b.ts`) takes its place.
    const shorter = chosen.findIndex((taken) => identifier.includes(taken));
    if (shorter !== -1) {
      const grown = chars + identifier.length - chosen[shorter]!.length;
      if (grown <= maxChars) {
        chosen[shorter] = identifier;
        chars = grown;
      }
      continue;
    }
    const cost = identifier.length + (chosen.length > 0 ? 2 : 0);
    if (chars + cost > maxChars) continue;
    chosen.push(identifier);
    chars += cost;
  }
  return chosen;
}

/** An id's stem and short suffix (`ledger-7`, `shard_02`, `web-1a`): a member of a series when its stem recurs. */
const SERIES_MEMBER = /^(.+)[-_][A-Za-z0-9]{1,3}$/;
/** Ids of one stem with a short suffix that make a series (`ledger-1`, `ledger-2`, `ledger-3`). */
const SERIES_MIN_MEMBERS = 3;
/** The tier of series members: after the lines that report a problem (0) and the rest (1). */
const SERIES_TIER = 2;

/**
 * The members of a series among `identifiers`: three or more distinct ids of one stem with a short
 * suffix (`ledger-1` … `ledger-9`, `shard_02`, `web-1a`) — the instances, shards or pods a log names
 * on every line. One of them tells less than an id that stands alone (`req_8f2k19x7`).
 */
export function seriesMembers(identifiers: Iterable<string>): Set<string> {
  const byStem = new Map<string, Set<string>>();
  for (const identifier of identifiers) {
    const stem = SERIES_MEMBER.exec(identifier)?.[1];
    if (stem === undefined) continue;
    const members = byStem.get(stem);
    if (members === undefined) byStem.set(stem, new Set([identifier]));
    else members.add(identifier);
  }
  const series = new Set<string>();
  for (const members of byStem.values()) {
    if (members.size >= SERIES_MIN_MEMBERS) for (const member of members) series.add(member);
  }
  return series;
}

/** Moves the ids of `candidates` that are {@link seriesMembers} behind every other identifier. */
function demoteSeries(candidates: { identifier: string; rank: number }[]): void {
  const ids = candidates.filter((candidate) => candidate.rank % KINDS.length === ID_KIND);
  const series = seriesMembers(ids.map((candidate) => candidate.identifier));
  for (const candidate of ids) {
    if (series.has(candidate.identifier)) {
      candidate.rank = SERIES_TIER * KINDS.length + (candidate.rank % KINDS.length);
    }
  }
}

/**
 * `candidates` in the order they are offered to the list: the kinds take turns, each by its rank
 * and each kind's in text order — on the lines that report a problem first, then off them, then the
 * members of a series — so that the twelve paths of a grep leave room for the one id beside them.
 */
function takingTurns<Candidate extends { rank: number; at: number }>(
  candidates: readonly Candidate[],
): Candidate[] {
  const byRank = new Map<number, Candidate[]>();
  for (const candidate of candidates) {
    const group = byRank.get(candidate.rank);
    if (group === undefined) byRank.set(candidate.rank, [candidate]);
    else group.push(candidate);
  }
  const ordered: Candidate[] = [];
  for (let tier = 0; tier <= SERIES_TIER; tier++) {
    const groups = [...byRank.entries()]
      .filter(([rank]) => Math.floor(rank / KINDS.length) === tier)
      .sort(([left], [right]) => left - right)
      .map(([, group]) => group.sort((left, right) => left.at - right.at));
    for (let turn = 0; groups.some((group) => turn < group.length); turn++) {
      for (const group of groups) if (turn < group.length) ordered.push(group[turn]!);
    }
  }
  return ordered;
}
