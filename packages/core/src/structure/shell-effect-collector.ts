import { normalizePath } from './file-path';
import { OTHER_EFFECT, type ShellWord } from './shell-command';
import type { ToolEffect } from './tool-effect';

/** What one simple command does, gathered as its redirections and arguments are read. */
export interface ShellEffectCollector {
  readonly effects: ToolEffect[];
  /** The word as a normalized path, or `undefined` when it holds an expansion. */
  path(word: ShellWord | undefined): string | undefined;
  /**
   * Adds an effect on the word's path (`other` when it has none). `flag` makes a read partial and a
   * listing recursive; a read whose output goes into a pipe is partial.
   */
  add(kind: 'read' | 'write' | 'edit' | 'delete' | 'list', word: ShellWord | undefined, flag?: boolean): void;
  /** Adds a read or a listing, unless the command's output went to a file (the result shows none of it). */
  addShown(kind: 'read' | 'list', word: ShellWord | undefined, flag?: boolean): void;
  /** Marks the command's output as redirected to a file. */
  redirectOutput(): void;
}

/** A collector for one simple command, run in `cwd`, whose output is `piped` or not. */
export function createShellEffectCollector({
  cwd,
  piped,
}: {
  cwd: string | undefined;
  piped: boolean;
}): ShellEffectCollector {
  const effects: ToolEffect[] = [];
  let outputRedirected = false;
  const path = (word: ShellWord | undefined) =>
    word === undefined || word.expands ? undefined : normalizePath(word.value, cwd);
  const collector: ShellEffectCollector = {
    effects,
    path,
    add(kind, word, flag) {
      const normalized = path(word);
      if (normalized === undefined) effects.push(OTHER_EFFECT);
      else if (kind === 'read')
        effects.push({ kind, path: normalized, ...(flag || piped ? { partial: true } : {}) });
      else if (kind === 'list')
        effects.push({ kind, path: normalized, ...(flag ? { recursive: true } : {}) });
      else effects.push({ kind, path: normalized });
    },
    addShown(kind, word, flag) {
      if (!outputRedirected) collector.add(kind, word, flag);
    },
    redirectOutput() {
      outputRedirected = true;
    },
  };
  return collector;
}
