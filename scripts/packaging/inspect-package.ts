import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { distProblems, treeShakingProblems } from './check-dist';
import { check, log } from './packaging-report';
import { type Manifest, readJson, repositoryRoot, run, work } from './packaging-shell';

export interface PackageInfo {
  directory: string;
  manifest: Manifest;
  tarball: string;
  /** Public names from src/index.ts. */
  values: string[];
  types: string[];
}

/** The names `src/index.ts` exports, split into values and type-only names. */
function publicNames(indexFile: string): { values: string[]; types: string[] } {
  const source = ts.createSourceFile(
    indexFile,
    readFileSync(indexFile, 'utf8'),
    ts.ScriptTarget.ES2022,
    true,
  );
  const values: string[] = [];
  const types: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isExportDeclaration(statement)) continue;
    const clause = statement.exportClause;
    if (clause === undefined || !ts.isNamedExports(clause)) {
      throw new Error(`${indexFile}: \`export *\` is not allowed (list every public export explicitly)`);
    }
    for (const element of clause.elements) {
      (statement.isTypeOnly || element.isTypeOnly ? types : values).push(element.name.text);
    }
  }
  return { values, types };
}

/** Every relative path a manifest points at (exports, main, module, types, bin). */
function manifestTargets(manifest: Manifest): string[] {
  const targets: string[] = [];
  const walk = (value: unknown) => {
    if (typeof value === 'string') {
      if (value.startsWith('./')) targets.push(value);
    } else if (value !== null && typeof value === 'object') {
      for (const inner of Object.values(value)) walk(inner);
    }
  };
  walk(manifest.exports);
  for (const field of ['main', 'module', 'types', 'typings']) walk(manifest[field]);
  if (typeof manifest.bin === 'string') walk(`./${manifest.bin.replace(/^\.\//, '')}`);
  else if (manifest.bin && typeof manifest.bin === 'object') {
    for (const target of Object.values(manifest.bin)) walk(`./${String(target).replace(/^\.\//, '')}`);
  }
  return targets;
}

/** Links npm cannot follow: anything that is not absolute, an anchor or mailto. */
function relativeLinks(markdown: string): string[] {
  const links: string[] = [];
  for (const match of markdown.matchAll(/\]\(([^)\s]+)[^)]*\)|<(?:img|a)\s[^>]*(?:src|href)="([^"]+)"/g)) {
    const target = match[1] ?? match[2] ?? '';
    if (!/^(https?:|#|mailto:)/.test(target)) links.push(target);
  }
  return links;
}

export async function packAndInspect(): Promise<PackageInfo[]> {
  log('== pack and inspect every package');
  const tarballs = join(work, 'tarballs');
  mkdirSync(tarballs);
  const entries = readdirSync(join(repositoryRoot, 'packages'))
    .sort()
    .filter((entry) => existsSync(join(repositoryRoot, 'packages', entry, 'package.json')))
    .filter((entry) => !readJson<Manifest>(join(repositoryRoot, 'packages', entry, 'package.json')).private);
  // Packages are packed and linted side by side; their outcomes are reported in order.
  const inspected = await Promise.all(entries.map((entry) => inspectPackage(entry, tarballs)));
  for (const { outcomes } of inspected) for (const [what, problems] of outcomes) check(what, problems);
  return inspected.map(({ info }) => info);
}

async function inspectPackage(
  entry: string,
  tarballs: string,
): Promise<{ info: PackageInfo; outcomes: Array<[string, string[]]> }> {
  const directory = join(repositoryRoot, 'packages', entry);
  const manifest = readJson<Manifest>(join(directory, 'package.json'));
  if (!existsSync(join(directory, 'dist'))) {
    throw new Error(`${manifest.name} has no dist/: run \`pnpm build\` before the packaging test`);
  }
  const packed = await run('pnpm', ['pack', '--pack-destination', tarballs], { cwd: directory });
  const tarball = join(
    tarballs,
    `${manifest.name.replace(/^@/, '').replace('/', '-')}-${manifest.version}.tgz`,
  );
  if (packed.code !== 0 || !existsSync(tarball))
    throw new Error(`pnpm pack failed in ${directory}\n${packed.output}`);
  const unpacked = join(work, 'unpacked', entry);
  mkdirSync(unpacked, { recursive: true });
  spawnSync('tar', ['xzf', tarball, '-C', unpacked], { stdio: 'inherit' });
  const root = join(unpacked, 'package');
  const packedManifest = readJson<Manifest>(join(root, 'package.json'));
  const problems: string[] = [];
  // The in-repository condition must not reach users (their tools may set it, and src/ is not
  // shipped); workspace: and catalog: ranges mean nothing outside this repository.
  const resolution = JSON.stringify([packedManifest.exports, packedManifest.imports]);
  if (resolution.includes('@spillway/source')) problems.push('the packed export map has @spillway/source');
  const ranges = JSON.stringify([
    packedManifest.dependencies,
    packedManifest.peerDependencies,
    packedManifest.optionalDependencies,
    packedManifest.devDependencies,
  ]);
  for (const protocol of ['workspace:', 'catalog:']) {
    if (ranges.includes(protocol)) problems.push(`the packed package.json has ${protocol} ranges`);
  }
  for (const target of manifestTargets(packedManifest)) {
    if (!existsSync(join(root, target))) problems.push(`${target} is referenced but not in the tarball`);
  }
  for (const file of ['LICENSE', 'README.md']) {
    if (!existsSync(join(root, file))) problems.push(`${file} is missing`);
  }
  for (const field of [
    'description',
    'license',
    'repository',
    'homepage',
    'bugs',
    'keywords',
    'engines',
    'files',
  ]) {
    if (packedManifest[field] === undefined) problems.push(`package.json has no ${field}`);
  }
  if (packedManifest.sideEffects !== false) problems.push('package.json does not say sideEffects: false');
  if (existsSync(join(root, 'README.md'))) {
    for (const link of relativeLinks(readFileSync(join(root, 'README.md'), 'utf8'))) {
      problems.push(`README.md links to ${link}, which npm cannot follow`);
    }
  }
  const outcomes: Array<[string, string[]]> = [
    [`${manifest.name}@${manifest.version}: packed manifest, files, LICENSE, README links`, problems],
    [
      `${manifest.name}: dist files (source maps all or none, each with its sources; no dependency inlined; imports declared)`,
      distProblems(root, packedManifest),
    ],
  ];
  if (manifest.name === '@spillway/core') {
    const shaken = await treeShakingProblems(root, {
      entry: 'dist/index.js',
      probes: ['truncateText', 'estimateTokens'],
      maxShare: 1 / 3,
    });
    outcomes.push([`${manifest.name}: the ESM entry tree-shakes (${shaken.summary})`, shaken.problems]);
  }
  const [publint, attw] = await Promise.all([
    run(join(repositoryRoot, 'node_modules/.bin/publint'), ['run', tarball, '--strict'], {
      cwd: repositoryRoot,
    }),
    run(join(repositoryRoot, 'node_modules/.bin/attw'), [tarball, '--format', 'ascii'], {
      cwd: repositoryRoot,
      env: { ...process.env, NO_COLOR: '1' },
    }),
  ]);
  const publintClean =
    publint.code === 0 && !/suggestion|warning|error/i.test(publint.output.replace(/No problems found/i, ''));
  outcomes.push([`${manifest.name}: publint --strict`, publintClean ? [] : [publint.output]]);
  const attwClean = attw.code === 0 && /No problems found/.test(attw.output);
  outcomes.push([
    `${manifest.name}: attw (node10, node16 CJS and ESM, bundler)`,
    attwClean ? [] : [attw.output],
  ]);
  return {
    info: { directory, manifest, tarball, ...publicNames(join(directory, 'src/index.ts')) },
    outcomes,
  };
}
