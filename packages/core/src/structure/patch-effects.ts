import { normalizePath } from './file-path';
import type { ToolEffect } from './tool-effect';

/**
 * The files a patch changes: the `apply_patch` format (`*** Add File: p`, `*** Update File: p`,
 * `*** Delete File: p`, `*** Move to: q`) and unified diffs (`--- a/p` / `+++ b/p`, `/dev/null` for
 * created and deleted files). Empty when the text is neither.
 */
export function patchEffects(text: string, cwd?: string): ToolEffect[] {
  const effects: ToolEffect[] = [];
  const path = (raw: string) => normalizePath(raw.trim(), cwd);
  const push = (kind: 'write' | 'edit' | 'delete', raw: string) => {
    const normalized = path(raw);
    effects.push(normalized === undefined ? { kind: 'other' } : { kind, path: normalized });
  };
  const lines = text.split(/\r?\n/);
  let updating: string | undefined;
  let oldFile: string | undefined;
  for (const line of lines) {
    const header = /^\*\*\* (Add|Update|Delete) File: (.+)$/.exec(line);
    if (header) {
      const [, verb, file] = header;
      updating = verb === 'Update' ? file : undefined;
      push(verb === 'Add' ? 'write' : verb === 'Update' ? 'edit' : 'delete', file!);
      continue;
    }
    const move = /^\*\*\* Move to: (.+)$/.exec(line);
    if (move && updating !== undefined) {
      push('delete', updating);
      push('write', move[1]!);
      updating = undefined;
      continue;
    }
    const minus = /^--- (.+)$/.exec(line);
    if (minus) {
      oldFile = stripDiffPath(minus[1]!);
      continue;
    }
    const plus = /^\+\+\+ (.+)$/.exec(line);
    if (plus && oldFile !== undefined) {
      const newFile = stripDiffPath(plus[1]!);
      if (oldFile === '/dev/null') push('write', newFile);
      else if (newFile === '/dev/null') push('delete', oldFile);
      else if (oldFile === newFile) push('edit', newFile);
      else {
        push('delete', oldFile);
        push('write', newFile);
      }
      oldFile = undefined;
    }
  }
  return effects;
}

/** A unified diff's file name without its timestamp and without git's `a/` / `b/` prefix. */
function stripDiffPath(raw: string): string {
  const name = raw.split('\t')[0]!.trim();
  return /^[ab]\//.test(name) ? name.slice(2) : name;
}
