import type { ShellCommandEffects } from './shell-command-handler';
import { splitShellArguments } from './split-shell-arguments';

/** `cat`, `nl`, `less`, `more`, `bat`: read whole files (part of one with `bat -r`). */
const wholeFiles: ShellCommandEffects = (args, { collector }) => {
  const { options, operands } = splitShellArguments(args, [
    '-l',
    '--language',
    '-r',
    '--line-range',
    '-m',
    '--map-syntax',
  ]);
  const partial = options.some((option) => /^(-r|--line-range)/.test(option));
  for (const operand of operands) collector.addShown('read', operand, partial);
  return undefined;
};

/** `head`, `tail`: read part of files. */
const fileEnds: ShellCommandEffects = (args, { collector }) => {
  const { operands } = splitShellArguments(args, ['-n', '-c', '--lines', '--bytes']);
  for (const operand of operands) collector.addShown('read', operand, true);
  return undefined;
};

/** `sed`: reads part of files, or with `-i` edits them in place. */
const streamEditor: ShellCommandEffects = (args, { collector }) => {
  const { options, operands, values } = splitShellArguments(args, [
    '-e',
    '--expression',
    '-f',
    '--file',
    '-l',
    '--line-length',
  ]);
  const inPlace = options.some((option) => /^-[a-zA-Z]*i|^--in-place/.test(option));
  const scripted = values.some(([option]) => /^(-e|--expression|-f|--file)/.test(option));
  // BSD's `sed -i '' …`: the empty suffix is its own word.
  const rest = inPlace && operands[0]?.value === '' ? operands.slice(1) : operands;
  const files = scripted ? rest : rest.slice(1);
  for (const file of files) {
    if (inPlace) collector.add('edit', file);
    else collector.addShown('read', file, true);
  }
  return undefined;
};

/** The commands that show files' content (and `sed`, which also edits them), by name. */
export const SHELL_READ_COMMANDS: Readonly<Record<string, ShellCommandEffects>> = {
  cat: wholeFiles,
  nl: wholeFiles,
  less: wholeFiles,
  more: wholeFiles,
  bat: wholeFiles,
  batcat: wholeFiles,
  head: fileEnds,
  tail: fileEnds,
  sed: streamEditor,
};
