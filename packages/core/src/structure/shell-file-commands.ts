import { baseName, joinPath } from './file-path';
import { OTHER_EFFECT } from './shell-command';
import type { ShellCommandEffects } from './shell-command-handler';
import { splitShellArguments } from './split-shell-arguments';

/** `rm`, `rmdir`, `unlink`: delete their operands. */
const remove: ShellCommandEffects = (args, { collector }) => {
  for (const operand of splitShellArguments(args, []).operands) collector.add('delete', operand);
  return undefined;
};

/**
 * `mv`, `cp`: write the destination (a file, or a directory that now holds each source under its
 * own name); `mv` also deletes the sources. `-t` and a single operand are `other`.
 */
const moveOrCopy: ShellCommandEffects = (args, { name, collector }) => {
  const { options, operands } = splitShellArguments(args, ['-S', '--suffix']);
  if (options.some((option) => /^(-[a-zA-Z]*t|--target-directory)/.test(option)) || operands.length < 2) {
    return 'other';
  }
  const destination = operands.at(-1)!;
  const target = collector.path(destination);
  for (const source of operands.slice(0, -1)) {
    if (name === 'mv') collector.add('delete', source);
    // The destination is a file, or a directory that now holds the source under its own name.
    const inside =
      target === undefined || source.expands ? undefined : joinPath(target, baseName(source.value));
    collector.effects.push(inside === undefined ? OTHER_EFFECT : { kind: 'write', path: inside });
  }
  collector.add('write', destination);
  return undefined;
};

/** `mkdir`: writes (creates) its operands. */
const makeDirectory: ShellCommandEffects = (args, { collector }) => {
  for (const operand of splitShellArguments(args, ['-m', '--mode']).operands) collector.add('write', operand);
  return undefined;
};

/** `tee`: writes its operands, or with `-a` appends to (edits) them. */
const tee: ShellCommandEffects = (args, { collector }) => {
  const { options, operands } = splitShellArguments(args, []);
  const append = options.some((option) => /^-[a-zA-Z]*a|^--append/.test(option));
  for (const operand of operands) collector.add(append ? 'edit' : 'write', operand);
  return undefined;
};

/** The commands that create, change, move or delete files, by name. */
export const SHELL_FILE_COMMANDS: Readonly<Record<string, ShellCommandEffects>> = {
  rm: remove,
  rmdir: remove,
  unlink: remove,
  mv: moveOrCopy,
  cp: moveOrCopy,
  mkdir: makeDirectory,
  tee,
};
