import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnUpstream } from './spawn-upstream';

const require = createRequire(import.meta.url);

type Parse = (
  command: string,
  args: string[],
  options: { env: NodeJS.ProcessEnv },
) => {
  command: string;
  args: string[];
  file?: string;
  options: { windowsVerbatimArguments?: boolean; shell?: unknown };
};

/**
 * cross-spawn's command resolution as it runs on Windows: the modules that read `process.platform`
 * when loaded (cross-spawn, which, isexe) are loaded afresh with it set to `win32`.
 */
function windowsParse(): Parse {
  const platform = Object.getOwnPropertyDescriptor(process, 'platform') as PropertyDescriptor;
  const crossSpawnPath = require.resolve('cross-spawn');
  const fresh = (path: string) =>
    path.includes('cross-spawn') || /[\\/](which|isexe|path-key)[\\/]/.test(path);
  for (const key of Object.keys(require.cache)) if (fresh(key)) delete require.cache[key];
  Object.defineProperty(process, 'platform', { ...platform, value: 'win32' });
  try {
    return (require(crossSpawnPath) as { _parse: Parse })._parse;
  } finally {
    Object.defineProperty(process, 'platform', platform);
    for (const key of Object.keys(require.cache)) if (fresh(key)) delete require.cache[key];
  }
}

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

describe('spawnUpstream', () => {
  it('starts the command with piped stdio and no shell (Linux: a plain spawn)', async () => {
    const child = spawnUpstream({
      command: process.execPath,
      args: ['-e', 'process.stdin.pipe(process.stdout)', 'a & b', '$(nope)'],
      stderr: 'pipe',
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.stdin?.end('echo through the child\n');
    const code = await new Promise((resolve) => child.once('close', resolve));
    expect(code).toBe(0);
    expect(output).toBe('echo through the child\n');
    expect(child.spawnargs.slice(-2)).toEqual(['a & b', '$(nope)']);
  });

  it('on Windows, runs an npx.cmd shim found through PATH and PATHEXT via cmd.exe, every argument escaped', () => {
    const bin = mkdtempSync(join(tmpdir(), 'spillway-win-bin-'));
    directories.push(bin);
    // Upper case: Windows matches PATHEXT without regard to case, this file system does not.
    writeFileSync(join(bin, 'npx.CMD'), '@echo off\r\n');
    const parse = windowsParse();
    const env = { PATH: bin, PATHEXT: '.COM;.EXE;.BAT;.CMD', comspec: 'C:\\Windows\\system32\\cmd.exe' };
    const parsed = parse('npx', ['-y', '@modelcontextprotocol/server-filesystem', 'C:\\My Files', 'a&b|c'], {
      env,
    });
    expect(parsed.command).toMatch(/cmd\.exe$/);
    expect(parsed.args.slice(0, 3)).toEqual(['/d', '/s', '/c']);
    const line = parsed.args[3] as string;
    // The shim was found on PATH (so cmd.exe is needed: it is not an .exe); cmd.exe runs `npx` itself.
    expect(parsed.file).toBe(join(bin, 'npx.CMD'));
    expect(line.startsWith('"npx ')).toBe(true);
    // Arguments are quoted and their metacharacters escaped with ^: cmd.exe passes them on literally.
    expect(line).toContain('^"C:\\My^ Files^"');
    expect(line).toContain('^"a^&b^|c^"');
    expect(parsed.options.windowsVerbatimArguments).toBe(true);
    expect(parsed.options.shell).toBeUndefined();
  });

  it('on Windows, runs an .exe directly, with no cmd.exe in between', () => {
    const bin = mkdtempSync(join(tmpdir(), 'spillway-win-bin-'));
    directories.push(bin);
    writeFileSync(join(bin, 'uvx.EXE'), '');
    const parse = windowsParse();
    const parsed = parse('uvx', ['mcp-server-git'], { env: { PATH: bin, PATHEXT: '.EXE;.CMD' } });
    expect(parsed.command).toBe('uvx');
    expect(parsed.args).toEqual(['mcp-server-git']);
    expect(parsed.options.windowsVerbatimArguments).toBeUndefined();
  });
});
