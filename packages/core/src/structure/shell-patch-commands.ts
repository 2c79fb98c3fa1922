import { patchEffects } from './patch-effects';
import type { ShellCommandEffects } from './shell-command-handler';

/** `apply_patch`: the patch is its argument or its here-document. */
const applyPatch: ShellCommandEffects = (args, { heredoc, cwd, collector }) => {
  const text = args[0]?.value ?? heredoc;
  const patched = text === undefined ? [] : patchEffects(text, cwd);
  if (patched.length === 0) return 'other';
  collector.effects.push(...patched);
  return undefined;
};

/** `patch` and `git apply`, with the patch in a here-document; anything else `git` does is `other`. */
const patchFromHeredoc: ShellCommandEffects = (args, { name, heredoc, cwd, collector }) => {
  const applying = name === 'patch' || args[0]?.value === 'apply';
  const patched = applying && heredoc !== undefined ? patchEffects(heredoc, cwd) : [];
  if (patched.length === 0) return 'other';
  collector.effects.push(...patched);
  return undefined;
};

/** The commands that apply patches, by name. */
export const SHELL_PATCH_COMMANDS: Readonly<Record<string, ShellCommandEffects>> = {
  apply_patch: applyPatch,
  applypatch: applyPatch,
  patch: patchFromHeredoc,
  git: patchFromHeredoc,
};
