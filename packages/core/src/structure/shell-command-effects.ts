import { baseName } from './file-path';
import { OTHER_EFFECT, type SimpleCommand } from './shell-command';
import type { ShellCommandEffects } from './shell-command-handler';
import { shellCommandName } from './shell-command-name';
import { createShellEffectCollector } from './shell-effect-collector';
import { SHELL_FILE_COMMANDS } from './shell-file-commands';
import { SHELL_LISTING_COMMANDS } from './shell-listing-commands';
import { SHELL_PATCH_COMMANDS } from './shell-patch-commands';
import { SHELL_READ_COMMANDS } from './shell-read-commands';
import { shellRedirectEffects } from './shell-redirect-effects';
import type { ToolEffect } from './tool-effect';

/** Commands that print or change nothing on disk (their output is harmless to drop with the rest). */
const harmless: ShellCommandEffects = () => undefined;

/** Every command the mapping knows, by name; any other command makes the call `other`. */
const KNOWN_COMMANDS: Readonly<Record<string, ShellCommandEffects>> = {
  ...SHELL_READ_COMMANDS,
  ...SHELL_LISTING_COMMANDS,
  ...SHELL_FILE_COMMANDS,
  ...SHELL_PATCH_COMMANDS,
  echo: harmless,
  printf: harmless,
  true: harmless,
  false: harmless,
  ':': harmless,
  pwd: harmless,
};

/**
 * What one simple command does to files: its redirections first (a file written, the output not
 * shown), then the command itself by name. An unknown command, or a use of a known one the mapping
 * cannot see through, makes it `other`.
 */
export function shellCommandEffects(
  { words, redirects, piped }: SimpleCommand,
  cwd: string | undefined,
): ToolEffect[] {
  const collector = createShellEffectCollector({ cwd, piped });
  const redirected = shellRedirectEffects(redirects, collector);
  if (redirected === false) return [OTHER_EFFECT];
  const command = shellCommandName(words);
  if (command === undefined) return collector.effects;
  if (command.name.expands) return [OTHER_EFFECT];
  const name = baseName(command.name.value);
  const effects = Object.hasOwn(KNOWN_COMMANDS, name) ? KNOWN_COMMANDS[name] : undefined;
  if (effects === undefined) return [OTHER_EFFECT];
  const outcome = effects(command.args, { name, heredoc: redirected.heredoc, cwd, collector });
  return outcome === 'other' ? [OTHER_EFFECT] : collector.effects;
}
