import type { ShellWord } from './shell-command';

/** A command's arguments sorted out: option words, operand words, and options with their values. */
export interface ShellArguments {
  options: string[];
  operands: ShellWord[];
  values: [string, ShellWord][];
}

/**
 * Options and operands of a command's arguments. Options in `valued` take the next word as their
 * value (unless written `-n20` or `--lines=20`); `--` ends the options.
 */
export function splitShellArguments(args: readonly ShellWord[], valued: readonly string[]): ShellArguments {
  const options: string[] = [];
  const operands: ShellWord[] = [];
  const values: [string, ShellWord][] = [];
  let ended = false;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (ended || arg.expands || !arg.value.startsWith('-') || arg.value === '-') {
      if (arg.value !== '-') operands.push(arg);
      continue;
    }
    if (arg.value === '--') {
      ended = true;
      continue;
    }
    options.push(arg.value);
    // `-n 20` takes the next word; `-n20`, `--lines=20` and `head -20` carry their value inside.
    if (valued.includes(arg.value) && index + 1 < args.length) {
      values.push([arg.value, args[index + 1]!]);
      index++;
    }
  }
  return { options, operands, values };
}
