import { detectRules } from '../src/pin/detect-rules';

/** A dev set of the rule detector: rules, ordinary sentences, and messages with one rule among them. */
export interface DevPart {
  readonly rules: readonly string[];
  readonly nonRules: readonly string[];
  readonly messages: readonly { readonly text: string; readonly rule: string }[];
}

export interface Score {
  readonly caught: number;
  readonly rules: number;
  readonly falsePins: number;
  readonly nonRules: number;
  readonly missed: readonly string[];
  readonly pinned: readonly string[];
}

export function score(part: DevPart): Score {
  const missed: string[] = [];
  const pinned: string[] = [];
  let rules = 0;
  let nonRules = 0;
  const expectRule = (rule: string, found: readonly string[]) => {
    rules++;
    if (!found.includes(rule)) missed.push(rule);
  };
  for (const rule of part.rules) expectRule(rule, detectRules(rule).rules);
  for (const sentence of part.nonRules) {
    nonRules++;
    if (detectRules(sentence).rules.length > 0) pinned.push(sentence);
  }
  for (const { text, rule } of part.messages) {
    const found = detectRules(text).rules;
    expectRule(rule, found);
    for (const other of found) if (other !== rule) pinned.push(other);
    // Every sentence of the message other than the rule is a non-rule.
    nonRules += text.split(/(?<=[.!?])\s+/).length - 1;
  }
  return { caught: rules - missed.length, rules, falsePins: pinned.length, nonRules, missed, pinned };
}

export const percent = (count: number, total: number) => (100 * count) / total;

export function report(name: string, result: Score): string {
  return (
    `${name}: catch ${result.caught}/${result.rules} (${percent(result.caught, result.rules).toFixed(1)}%), ` +
    `false pins ${result.falsePins}/${result.nonRules} (${percent(result.falsePins, result.nonRules).toFixed(1)}%)`
  );
}
