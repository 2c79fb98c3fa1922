import type { ShellWord } from './shell-command';

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
/** Words that run the command after them (`env FOO=1 cat a.ts`). */
const PREFIXES = ['command', 'builtin', 'nohup', 'time', 'env'];

/**
 * The word that names the command and its arguments, past variable assignments (`FOO=1`) and
 * prefixes such as `env`, `nohup` and `time`; `undefined` when the words hold no command.
 */
export function shellCommandName(
  words: readonly ShellWord[],
): { name: ShellWord; args: readonly ShellWord[] } | undefined {
  let start = 0;
  while (start < words.length && ASSIGNMENT.test(words[start]!.value)) start++;
  while (start < words.length && PREFIXES.includes(words[start]!.value)) {
    start++;
    while (start < words.length && ASSIGNMENT.test(words[start]!.value)) start++;
  }
  if (start >= words.length) return undefined;
  return { name: words[start]!, args: words.slice(start + 1) };
}
