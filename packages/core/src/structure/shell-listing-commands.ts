import { literalWord } from './shell-command';
import type { ShellCommandEffects } from './shell-command-handler';
import { splitShellArguments } from './split-shell-arguments';

/** `ls`, `dir`: list directories (recursively with `-R`); the current one without operands. */
const list: ShellCommandEffects = (args, { collector }) => {
  const { options, operands } = splitShellArguments(args, ['-I', '--ignore', '-w', '--width', '-T']);
  const recursive = options.some((option) => /^-[a-zA-Z]*R|^--recursive/.test(option));
  if (operands.length === 0) collector.addShown('list', literalWord('.'), recursive);
  for (const operand of operands) collector.addShown('list', operand, recursive);
  return undefined;
};

/** `tree`: lists directories recursively; `-o` writes the listing to a file. */
const tree: ShellCommandEffects = (args, { collector }) => {
  const { operands, values } = splitShellArguments(args, [
    '-L',
    '-I',
    '-P',
    '-o',
    '--filelimit',
    '--charset',
  ]);
  for (const [option, value] of values) if (option === '-o') collector.add('write', value);
  if (operands.length === 0) collector.addShown('list', literalWord('.'), true);
  for (const operand of operands) collector.addShown('list', operand, true);
  return undefined;
};

/** `find`: lists its roots recursively; with an action that changes or writes files it is `other`. */
const find: ShellCommandEffects = (args, { collector }) => {
  const firstExpression = args.findIndex((arg) => /^[-(!]/.test(arg.value));
  const roots = firstExpression === -1 ? args : args.slice(0, firstExpression);
  const expression = firstExpression === -1 ? [] : args.slice(firstExpression);
  if (
    expression.some((arg) => /^-(delete|exec|execdir|ok|okdir|fprint|fprint0|fprintf|fls)$/.test(arg.value))
  ) {
    return 'other';
  }
  if (roots.length === 0) collector.addShown('list', literalWord('.'), true);
  for (const root of roots) collector.addShown('list', root, true);
  return undefined;
};

/** The commands that list directories, by name. */
export const SHELL_LISTING_COMMANDS: Readonly<Record<string, ShellCommandEffects>> = {
  ls: list,
  dir: list,
  tree,
  find,
};
