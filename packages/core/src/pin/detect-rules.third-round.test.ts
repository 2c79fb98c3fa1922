import { describe, expect, it } from 'vitest';
import { type DevPart, report, score } from '../../test/rule-dev-set';

/**
 * A third round (2026-11-28), after three standing instructions of the second generator
 * (`test/operations-session.ts`) went undetected at a 5% window: "Timestamps I get from you should
 * be in UTC.", "Whatever report you draft for me ends with a one-line TL;DR.", "Round percentages to
 * one decimal place." Their shapes, not their words, were written out as new phrasings: a class of
 * what the assistant hands over ("numbers I get from you …", "tables you produce for me …"), a
 * "whatever / whichever X you …" subject or leading clause, and a convention verb in the imperative
 * on a bare class ("sort imports alphabetically"; "sort the imports in this file" is a one-off).
 * Before the change the detector caught 2 of `tuning3`'s 25 and 4 of `heldBack3`'s 12; after it
 * 24/25 and 12/12, no false pin here, in the earlier rounds or in the quality benchmark's generated
 * text. The held-back set was written at the same sitting as the tuning set, so it checks the
 * patterns against near neighbours, not against independent phrasing.
 */
const tuning3: DevPart = {
  rules: [
    'Whatever summary you write for me starts with the conclusion.',
    'Whichever branch you create gets the ticket number as a prefix.',
    'Numbers I get from you should have thousands separators.',
    'Answers I get from you should fit on one screen.',
    'Round currency amounts to two decimals.',
    'Format dates as YYYY-MM-DD.',
    'Sort imports alphabetically.',
    'Quote file paths in backticks.',
    'Prefix feature branches with feat/.',
    'Name test files after the module they cover.',
    'Tag releases with the semantic version.',
    'Cite sources with a link.',
    'Capitalize headings in title case.',
    'Abbreviate months to three letters.',
    'Whatever query you run against production must be read-only.',
    'Whatever script you hand me should be idempotent.',
    'Code I get from you has to compile without warnings.',
    'Estimates you give me are in days, not hours.',
    'Spell out numbers under ten.',
    'Indent YAML with two spaces.',
    'Word error messages as instructions, not descriptions.',
    'Label charts with their units.',
    'Whichever language the user writes in, answer in that language.',
    'Tables you produce for me need a header row.',
    'Express durations in seconds.',
  ],
  nonRules: [
    'Round the total to two decimals.',
    'Format this date for me.',
    'Sort the imports in this file.',
    'Whatever you think is best.',
    'The numbers I get from you look off today.',
    'Name the new file config.ts.',
    'Tag this release as v1.2.',
    'Write tests for the parser.',
    'Quote the error message in your reply.',
    'Dates in this report are wrong.',
    'Whichever one is faster.',
    'Check logs for errors.',
  ],
  messages: [],
};
/** Written with `tuning3`, before the patterns changed; scored once after them. */
const heldBack3: DevPart = {
  rules: [
    'Whatever commit you make should reference an issue.',
    'Logs I get from you need timestamps.',
    'Round latencies to whole milliseconds.',
    'Format phone numbers in E.164.',
    'Prefix environment variables with APP_.',
    'Sort changelog entries by date.',
    'Whichever test you add goes next to the code it tests.',
    'Explanations you give me should stay under five sentences.',
    'Name migrations with a timestamp first.',
    'Cite line numbers when you quote code.',
    'Spell product names exactly as the brand does.',
    'Whatever endpoint you add must have a rate limit.',
  ],
  nonRules: [
    'Round this number up.',
    'Format the output as a table.',
    'Prefix the variable with an underscore.',
    'Whatever works for you.',
    'The logs I get from you are truncated.',
    'Sort the results by date.',
  ],
  messages: [],
};
describe('detectRules on a third round: conventions for classes of output', () => {
  it('catches the third round of phrasings without pinning their look-alikes', () => {
    const tuned = score(tuning3);
    const held = score(heldBack3);
    console.log([report('tuning 3', tuned), report('held back 3', held)].join('\n'));
    // As measured when the round was set: 24/25 and 12/12 (before: 2/25 and 4/12), no false pin.
    // Missed: "Estimates you give me are in days, not hours." ("in days" reads as a moment).
    expect(tuned.caught).toBeGreaterThanOrEqual(24);
    expect(held.caught).toBe(12);
    expect(tuned.falsePins + held.falsePins).toBe(0);
  });
});
