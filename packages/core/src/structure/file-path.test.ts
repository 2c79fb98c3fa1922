import { describe, expect, it } from 'vitest';
import { ancestorPaths, normalizePath, parentPath } from './file-path';

describe('file paths', () => {
  it('normalizes the ways one path is written', () => {
    expect(normalizePath('./src//a.ts')).toBe('src/a.ts');
    expect(normalizePath('src/lib/../a.ts')).toBe('src/a.ts');
    expect(normalizePath('/repo/src/')).toBe('/repo/src');
    expect(normalizePath('.')).toBe('.');
    expect(normalizePath('./')).toBe('.');
    expect(normalizePath('/../a')).toBe('/a');
    expect(normalizePath('../a')).toBe('../a');
    expect(normalizePath('C:\\repo\\a.ts')).toBe('C:/repo/a.ts');
    expect(normalizePath('a.ts', '/w/')).toBe('/w/a.ts');
    expect(normalizePath('/x/a.ts', '/w')).toBe('/x/a.ts');
  });

  it('refuses patterns, expansions and non-strings', () => {
    for (const value of ['src/*.ts', '$HOME/a', 'a{b,c}', '', '   ', 3, undefined, null]) {
      expect(normalizePath(value)).toBeUndefined();
    }
  });

  it('walks up to the top', () => {
    expect(parentPath('src/a.ts')).toBe('src');
    expect(parentPath('a.ts')).toBe('.');
    expect(parentPath('/a')).toBe('/');
    expect(parentPath('/')).toBeUndefined();
    expect(ancestorPaths('src/lib/a.ts')).toEqual(['src/lib', 'src', '.']);
    expect(ancestorPaths('/w/a.ts')).toEqual(['/w', '/']);
  });
});
