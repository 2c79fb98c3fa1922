import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { build } from 'esbuild';
import type { Manifest } from './packaging-shell';

/** Every file under `folder`, as paths relative to `root`. */
function filesUnder(root: string, folder: string): string[] {
  const directory = join(root, folder);
  if (!existsSync(directory)) return [];
  return readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .sort();
}

/** Bare module specifiers a built file imports or requires. */
function importedSpecifiers(code: string): string[] {
  const specifiers = new Set<string>();
  for (const match of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)["']([^"'\s]+)["']/g)) {
    if (!match[1]!.startsWith('.')) specifiers.add(match[1]!);
  }
  return [...specifiers];
}

/**
 * What is wrong with a packed package's built files:
 * - source maps: none at all, or one for every script, each holding the text of every source it
 *   names (`sourcesContent`; `src/` is not shipped) and naming no absolute or `node_modules` path;
 *   a script never points at a map that is not in the tarball;
 * - no dependency inlined by accident (esbuild heads each module it inlines with a `// path`
 *   comment; a `node_modules` path there means a dependency was bundled instead of imported);
 * - every bare import is a `dependency` or `peerDependency` of the manifest, or a Node built-in
 *   (never in `@spillway/core`, which runs in edge runtimes and browsers too).
 */
export function distProblems(root: string, manifest: Manifest): string[] {
  const problems: string[] = [];
  const files = filesUnder(root, 'dist');
  const scripts = files.filter((file) => /\.[cm]?js$/.test(file));
  const maps = files.filter((file) => file.endsWith('.map'));
  for (const script of scripts) {
    const code = readFileSync(join(root, script), 'utf8');
    const mapUrl = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(code)?.[1];
    if (mapUrl === undefined) {
      if (maps.length > 0) problems.push(`${script} has no source map, while ${maps[0]} is shipped`);
    } else if (!existsSync(join(root, dirname(script), mapUrl))) {
      problems.push(`${script} names the source map ${mapUrl}, which is not in the tarball`);
    }
    for (const inlined of code.matchAll(/^\/\/ (\S*node_modules\/\S+)$/gm)) {
      problems.push(`${script} bundles ${inlined[1]} (a dependency inlined instead of imported)`);
    }
    const declared = {
      ...(manifest.dependencies as Record<string, string> | undefined),
      ...(manifest.peerDependencies as Record<string, string> | undefined),
    };
    for (const specifier of importedSpecifiers(code)) {
      const name = specifier
        .split('/')
        .slice(0, specifier.startsWith('@') ? 2 : 1)
        .join('/');
      // tsup drops the `node:` prefix of built-ins (removeNodeProtocol); both forms are built-ins.
      if (specifier.startsWith('node:') || builtinModules.includes(name)) {
        if (manifest.name === '@spillway/core') {
          problems.push(`${script} imports the built-in ${specifier} (core has no Node-only APIs)`);
        }
      } else if (declared[name] === undefined) {
        problems.push(`${script} imports ${name}, which is not a dependency or peer dependency`);
      }
    }
  }
  for (const map of maps) {
    let parsed: { sources?: unknown; sourcesContent?: unknown };
    try {
      parsed = JSON.parse(readFileSync(join(root, map), 'utf8'));
    } catch {
      problems.push(`${map} is not JSON`);
      continue;
    }
    const sources = Array.isArray(parsed.sources) ? (parsed.sources as unknown[]) : [];
    const contents = Array.isArray(parsed.sourcesContent) ? (parsed.sourcesContent as unknown[]) : [];
    const missing = sources.filter((_, index) => typeof contents[index] !== 'string');
    if (missing.length > 0) problems.push(`${map} has no sourcesContent for ${missing.join(', ')}`);
    for (const source of sources) {
      if (typeof source !== 'string' || isAbsolute(source) || source.includes('node_modules/')) {
        problems.push(`${map} names the source ${String(source)}`);
      }
    }
  }
  return problems;
}

/** Minified size of what a bundler keeps of `entry` for `imports` (`'*'`: everything). */
async function bundledSize(root: string, entry: string, imports: string): Promise<number> {
  const contents =
    imports === '*'
      ? `import * as all from './${entry}'; console.log(all);`
      : `import { ${imports} } from './${entry}'; console.log(${imports});`;
  const result = await build({
    stdin: { contents, resolveDir: root, sourcefile: 'probe.mjs' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    packages: 'external',
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.contents.length;
}

/**
 * Whether the ESM entry tree-shakes: bundling one function of it keeps at most `maxShare` of what
 * bundling all of it keeps (a module-level side effect would drag everything in).
 */
export async function treeShakingProblems(
  root: string,
  { entry, probes, maxShare }: { entry: string; probes: readonly string[]; maxShare: number },
): Promise<{ summary: string; problems: string[] }> {
  const whole = await bundledSize(root, entry, '*');
  const kilobytes = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  const parts: string[] = [];
  const problems: string[] = [];
  for (const probe of probes) {
    const size = await bundledSize(root, entry, probe);
    parts.push(`${probe} ${kilobytes(size)}`);
    if (size > whole * maxShare) {
      problems.push(
        `bundling only ${probe} keeps ${kilobytes(size)} of ${kilobytes(whole)} (over ${maxShare * 100}%)`,
      );
    }
  }
  return { summary: `${parts.join(', ')} of ${kilobytes(whole)} minified`, problems };
}
