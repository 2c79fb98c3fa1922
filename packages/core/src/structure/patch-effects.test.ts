import { describe, expect, it } from 'vitest';
import { patchEffects } from './patch-effects';

describe('patchEffects', () => {
  it('reads the apply_patch format, moves included', () => {
    const patch = [
      '*** Begin Patch',
      '*** Update File: src/a.ts',
      '@@ class A',
      '-  old',
      '+  new',
      '*** Update File: src/b.ts',
      '*** Move to: src/c.ts',
      '@@',
      '-x',
      '+y',
      '*** Delete File: src/d.ts',
      '*** Add File: src/e.ts',
      '+export {};',
      '*** End Patch',
    ].join('\n');
    expect(patchEffects(patch)).toEqual([
      { kind: 'edit', path: 'src/a.ts' },
      { kind: 'edit', path: 'src/b.ts' },
      { kind: 'delete', path: 'src/b.ts' },
      { kind: 'write', path: 'src/c.ts' },
      { kind: 'delete', path: 'src/d.ts' },
      { kind: 'write', path: 'src/e.ts' },
    ]);
  });

  it('reads unified diffs (git prefixes, timestamps, /dev/null)', () => {
    const diff = [
      'diff --git a/src/a.ts b/src/a.ts',
      '--- a/src/a.ts',
      '+++ b/src/a.ts',
      '@@ -1 +1 @@',
      '-a',
      '+b',
      '--- /dev/null',
      '+++ b/src/new.ts',
      '@@ -0,0 +1 @@',
      '+x',
      '--- old/gone.ts\t2024-01-01 00:00:00',
      '+++ /dev/null\t2024-01-01 00:00:00',
    ].join('\n');
    expect(patchEffects(diff, '/w')).toEqual([
      { kind: 'edit', path: '/w/src/a.ts' },
      { kind: 'write', path: '/w/src/new.ts' },
      { kind: 'delete', path: '/w/old/gone.ts' },
    ]);
  });

  it('finds nothing in text that is not a patch', () => {
    expect(patchEffects('please fix the bug')).toEqual([]);
  });
});
