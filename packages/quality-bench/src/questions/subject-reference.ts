import { ADJECTIVES, NOUNS, SERVICES } from '../conversation/vocabulary';
import type { SeededRandom } from '../random/seeded-random';

/** Other ways people name each kind of component (a question may use one instead of the name). */
const NOUN_SYNONYMS: Readonly<Record<(typeof NOUNS)[number], readonly string[]>> = {
  'reconciliation job': ['reconciliation run', 'recon job'],
  'export worker': ['exporter', 'export job'],
  'rate limiter': ['throttling', 'rate limiting'],
  'retry queue': ['retry backlog', 'queue of retries'],
  'cache warmer': ['cache pre-warming', 'cache warm-up job'],
  'audit trail': ['audit log', 'audit history'],
  'settlement run': ['settlement batch', 'settlement job'],
  'fraud check': ['fraud screening', 'fraud filter'],
  'schema migration': ['schema change', 'DB migration'],
  'index rebuild': ['reindex', 'index rebuild job'],
  'token refresher': ['token refresh', 'token renewal job'],
  'dead-letter queue': ['DLQ', 'dead letter queue'],
};

/** A subject split into what the generator built it from ("nightly" + "ledger" + "reconciliation job"). */
function parts(subject: string): { adjective: string; service: string; noun: string } | undefined {
  const [adjective, service, ...rest] = subject.split(' ');
  const noun = rest.join(' ');
  if (
    !ADJECTIVES.includes(adjective as never) ||
    !SERVICES.includes(service as never) ||
    !NOUNS.includes(noun as never)
  ) {
    return undefined;
  }
  return { adjective: adjective!, service: service!, noun };
}

/**
 * Every way a question may name `subject` (e.g. "nightly ledger reconciliation job"): in full, in
 * another order, without its adjective, with another word for the component, or as a possessive —
 * what people do when they come back to something said long ago.
 */
export function subjectReferences(subject: string): string[] {
  const split = parts(subject);
  if (split === undefined) return [`the ${subject}`];
  const { adjective, service, noun } = split;
  const synonyms = NOUN_SYNONYMS[noun as (typeof NOUNS)[number]];
  return [
    `the ${subject}`,
    `the ${adjective} ${noun} in ${service}`,
    `the ${service} ${noun}`,
    ...synonyms.map((synonym) => `the ${adjective} ${service} ${synonym}`),
    `the ${adjective} ${noun} of ${service}`,
    `${service}'s ${adjective} ${noun}`,
  ];
}

/**
 * One reference to `subject`, picked by `random` (full name 25%, another order 20%, no adjective
 * 15%, another word for the component 25%, possessive 15%), never one containing any of `avoid`
 * (case-insensitive; e.g. the needle's cue) when another exists.
 */
export function subjectReference(
  random: SeededRandom,
  subject: string,
  avoid: readonly string[] = [],
): string {
  const all = subjectReferences(subject);
  const allowed = all.filter((reference) =>
    avoid.every((text) => !reference.toLowerCase().includes(text.toLowerCase())),
  );
  const pool = allowed.length > 0 ? allowed : all;
  if (all.length === 1) return pool[0]!;
  const roll = random.next();
  const wanted =
    roll < 0.25
      ? all[0]
      : roll < 0.45
        ? random.pick([all[1]!, all.at(-2)!])
        : roll < 0.6
          ? all[2]
          : roll < 0.85
            ? random.pick(all.slice(3, -2))
            : all.at(-1);
  return wanted !== undefined && pool.includes(wanted) ? wanted : random.pick(pool);
}
