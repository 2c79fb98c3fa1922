import { describe, expect, it } from 'vitest';
import { shellEffects } from './shell-effects';

describe('shellEffects', () => {
  it('reads with cat, nl and less; partial with head, tail, sed -n and pipes', () => {
    expect(shellEffects('cat src/a.ts')).toEqual([{ kind: 'read', path: 'src/a.ts' }]);
    expect(shellEffects('cat -n ./src/a.ts src/b.ts')).toEqual([
      { kind: 'read', path: 'src/a.ts' },
      { kind: 'read', path: 'src/b.ts' },
    ]);
    expect(shellEffects('head -n 40 a.ts')).toEqual([{ kind: 'read', path: 'a.ts', partial: true }]);
    expect(shellEffects('tail -20 a.ts')).toEqual([{ kind: 'read', path: 'a.ts', partial: true }]);
    expect(shellEffects("sed -n '1,80p' a.ts")).toEqual([{ kind: 'read', path: 'a.ts', partial: true }]);
    // grep is not known: the result also shows something the mapping cannot see.
    expect(shellEffects('cat a.ts | grep foo')).toEqual([
      { kind: 'read', path: 'a.ts', partial: true },
      { kind: 'other' },
    ]);
    expect(shellEffects('cat a.ts | head')).toEqual([{ kind: 'read', path: 'a.ts', partial: true }]);
  });

  it('edits with sed -i (GNU and BSD forms) and writes with redirections and tee', () => {
    expect(shellEffects("sed -i 's/a/b/g' src/a.ts")).toEqual([{ kind: 'edit', path: 'src/a.ts' }]);
    expect(shellEffects("sed -i '' 's/a/b/' src/a.ts")).toEqual([{ kind: 'edit', path: 'src/a.ts' }]);
    expect(shellEffects("sed -i.bak -e 's/a/b/' -e 's/c/d/' a.ts b.ts")).toEqual([
      { kind: 'edit', path: 'a.ts' },
      { kind: 'edit', path: 'b.ts' },
    ]);
    expect(shellEffects('echo hi > out.txt')).toEqual([{ kind: 'write', path: 'out.txt' }]);
    expect(shellEffects('echo hi >> out.txt')).toEqual([{ kind: 'edit', path: 'out.txt' }]);
    expect(shellEffects('printf x | tee -a log.txt')).toEqual([{ kind: 'edit', path: 'log.txt' }]);
    // Output redirected: nothing of a.ts is shown in the result.
    expect(shellEffects('cat a.ts > b.ts')).toEqual([{ kind: 'write', path: 'b.ts' }]);
    expect(shellEffects('cat a.ts 2>/dev/null')).toEqual([{ kind: 'read', path: 'a.ts' }]);
  });

  it('writes with here-documents and applies patches given in one', () => {
    expect(
      shellEffects("cat > src/new.ts <<'EOF'\nexport const x = 1;\ncd nowhere\nEOF\ncat src/new.ts"),
    ).toEqual([
      { kind: 'write', path: 'src/new.ts' },
      { kind: 'read', path: 'src/new.ts' },
    ]);
    expect(
      shellEffects("apply_patch <<'PATCH'\n*** Begin Patch\n*** Delete File: old.ts\n*** End Patch\nPATCH"),
    ).toEqual([{ kind: 'delete', path: 'old.ts' }]);
    expect(shellEffects('git apply <<EOF\n--- a/x.ts\n+++ b/x.ts\n@@ -1 +1 @@\n-a\n+b\nEOF')).toEqual([
      { kind: 'edit', path: 'x.ts' },
    ]);
  });

  it('lists, removes, moves, copies and makes directories', () => {
    expect(shellEffects('ls')).toEqual([{ kind: 'list', path: '.' }]);
    expect(shellEffects('ls -la src')).toEqual([{ kind: 'list', path: 'src' }]);
    expect(shellEffects('ls -R src')).toEqual([{ kind: 'list', path: 'src', recursive: true }]);
    expect(shellEffects("find src -name '*.ts'")).toEqual([{ kind: 'list', path: 'src', recursive: true }]);
    expect(shellEffects('find . -name x -delete')).toEqual([{ kind: 'other' }]);
    expect(shellEffects('rm -f a.ts b.ts')).toEqual([
      { kind: 'delete', path: 'a.ts' },
      { kind: 'delete', path: 'b.ts' },
    ]);
    expect(shellEffects('mv a.ts lib')).toEqual([
      { kind: 'delete', path: 'a.ts' },
      { kind: 'write', path: 'lib/a.ts' },
      { kind: 'write', path: 'lib' },
    ]);
    expect(shellEffects('mkdir -p lib/x && touch lib/x/y.ts')).toEqual([
      { kind: 'write', path: 'lib/x' },
      { kind: 'other' },
    ]);
  });

  it('follows chains and takes argv forms', () => {
    expect(shellEffects("sed -i 's/a/b/' a.ts && cat a.ts; echo done")).toEqual([
      { kind: 'edit', path: 'a.ts' },
      { kind: 'read', path: 'a.ts' },
    ]);
    expect(shellEffects(['bash', '-lc', 'cat a.ts'])).toEqual([{ kind: 'read', path: 'a.ts' }]);
    expect(shellEffects(['cat', 'a.ts'])).toEqual([{ kind: 'read', path: 'a.ts' }]);
    expect(shellEffects('cat a.ts', '/w')).toEqual([{ kind: 'read', path: '/w/a.ts' }]);
  });

  it('gives up (other) on what it will not guess at', () => {
    for (const script of [
      'cd src && cat a.ts',
      'cat $(ls)',
      'cat `ls`',
      '(cat a.ts)',
      'diff <(cat a) b',
      'npm test',
      'cat "$FILE"',
      'python -c \'open("a","w")\'',
      'cat "unterminated',
    ]) {
      const result = shellEffects(script);
      expect(
        result.some((effect) => effect.kind === 'other'),
        script,
      ).toBe(true);
      expect(
        result.every((effect) => effect.kind === 'other' || effect.kind === 'read'),
        script,
      ).toBe(true);
    }
    expect(shellEffects('cat $HOME/a.ts')).toEqual([{ kind: 'other' }]);
    expect(shellEffects('cat src/*.ts')).toEqual([{ kind: 'other' }]);
  });
});
