import { baseName } from './file-path';
import { parseShellScript } from './parse-shell-script';
import { OTHER_EFFECT } from './shell-command';
import { shellCommandEffects } from './shell-command-effects';
import type { ToolEffect } from './tool-effect';

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh']);

/**
 * What a shell command does to files, for the commands a coding agent uses to read and change them:
 * `cat`/`nl`/`less` (read), `head`/`tail`/`sed -n` (part of a file), `sed -i` (edit), `> f` / `>> f` /
 * `tee` (write, append), `rm`, `mv`, `cp`, `mkdir`, `ls`/`tree`/`find` (listings), `apply_patch` and
 * `git apply`/`patch` with a here-document. Chains (`&&`, `||`, `;`) and pipes are followed; `cd`,
 * command substitutions, subshells and every other command make the call `other` (never stale).
 * `command` is a script, or an argv (`['bash', '-lc', script]`, or a command's own words).
 *
 * The steps: an argv that runs a shell with `-c` is its script, any other argv one command
 * (`shellCommandEffects`); a script is parsed into simple commands (`parseShellScript`), and each
 * command's effects follow in order: its redirections (`shellRedirectEffects`), then the command by
 * name (`shell-read-commands`, `shell-listing-commands`, `shell-file-commands`,
 * `shell-patch-commands`).
 */
export function shellEffects(command: string | readonly string[], cwd?: string): ToolEffect[] {
  if (Array.isArray(command)) return argvEffects(command, cwd);
  if (typeof command !== 'string') return [OTHER_EFFECT];
  const commands = parseShellScript(command);
  if (commands === undefined) return [OTHER_EFFECT];
  return commands.flatMap((simple) => shellCommandEffects(simple, cwd));
}

/** An argv: `['bash', '-lc', script]` is the script; any other shell is `other`; else one command. */
function argvEffects(argv: readonly string[], cwd: string | undefined): ToolEffect[] {
  if (argv.length === 0 || argv.some((word) => typeof word !== 'string')) return [OTHER_EFFECT];
  const shell = SHELLS.has(baseName(argv[0]!));
  const flag = argv.findIndex((word, index) => index > 0 && /^-[a-z]*c[a-z]*$/.test(word));
  if (shell && flag !== -1 && typeof argv[flag + 1] === 'string') return shellEffects(argv[flag + 1]!, cwd);
  if (shell) return [OTHER_EFFECT];
  const words = argv.map((value) => ({ value, expands: false }));
  return shellCommandEffects({ words, redirects: [], piped: false }, cwd);
}
