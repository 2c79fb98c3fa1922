import type { ShellWord } from './shell-command';
import type { ShellEffectCollector } from './shell-effect-collector';

/** What a known command is given: its name, the here-document it reads, the cwd, the collector. */
export interface ShellCommandContext {
  /** The command's name (`cat`, `git`), without its directory. */
  name: string;
  /** The here-document or here-string the command reads, if any. */
  heredoc: string | undefined;
  cwd: string | undefined;
  collector: ShellEffectCollector;
}

/**
 * Adds what a known command does with its arguments to the context's collector; answers `'other'`
 * when this use of it is one the mapping cannot see through (the whole call is then `other`).
 */
export type ShellCommandEffects = (
  args: readonly ShellWord[],
  context: ShellCommandContext,
) => 'other' | undefined;
