import type { Needle } from '../conversation/conversation';
import { fillTemplate } from '../conversation/phrasings/fill-template';
import { hashText } from '../random/hash-text';
import { seededRandom } from '../random/seeded-random';
import { QUESTION_TEMPLATES } from './question-templates';
import { subjectReference } from './subject-reference';

/**
 * The natural-language question a later turn asks about `needle` ("Which port did I give for the
 * ledger export job?"): a template for the fact's kind and what about it, naming the subject the
 * way people do when they come back to it (in full, reordered, shortened, with another word; see
 * `subjectReference`). It never holds the needle's value nor its cue (the phrase that stood next to
 * the value), so a search must work from the question's own words. Deterministic per needle id and
 * seed, and independent of the generator's random stream.
 */
export function askQuestion(needle: Needle, seed: number): string {
  const random = seededRandom(hashText(`question:${needle.id}`, seed));
  const forbidden = [needle.cue, ...needle.placements.flatMap((placement) => placement.values)].map((text) =>
    text.toLowerCase(),
  );
  const clean = (question: string) => forbidden.every((text) => !question.toLowerCase().includes(text));
  if (needle.kind === 'constraint') {
    const written = (needle.topic.questions ?? []).filter(clean);
    if (written.length === 0) throw new Error(`rule ${needle.id} has no question free of its cue`);
    return random.pick(written);
  }
  const { subject, detail } = needle.topic;
  if (subject === undefined) throw new Error(`needle ${needle.id} has no subject to ask about`);
  const byDetail = QUESTION_TEMPLATES[needle.kind];
  const key = needle.kind === 'superseded' ? 'setting' : needle.kind === 'decision' ? 'decision' : detail;
  const templates = byDetail[key];
  if (templates === undefined) throw new Error(`no question template for ${needle.kind} / ${key}`);
  for (let attempt = 0; attempt < 20; attempt++) {
    const ref = subjectReference(random, subject, [needle.cue]);
    const question = fillTemplate(random.pick(templates), { ref, setting: detail });
    if (clean(question)) return question;
  }
  throw new Error(`no question for ${needle.id} free of its cue "${needle.cue}"`);
}
