/**
 * The packaging test: what npm users get, checked outside the repository.
 *
 * 1. `pnpm pack` every public package under packages/ (after `pnpm build`).
 * 2. The packed manifest: no in-repository `@spillway/source` condition, no `workspace:` or
 *    `catalog:` ranges, every file the manifest points at is in the tarball, LICENSE and README
 *    are there, the metadata is complete, and the README has no relative links (npm cannot follow
 *    them). `publint --strict` and `attw` (node10, node16 CJS and ESM, bundler) on the tarball.
 * 3. Scratch projects in the OS temp folder, installed from the tarballs with npm (the frameworks
 *    from the registry or its cache): one with ai 6, LangChain and the MCP SDK, one with ai 7.
 *    - TypeScript: every public name (values and types) of every package imported, plus a typed
 *      use of each adapter with its framework, under `moduleResolution` bundler and nodenext
 *      (an ESM `.mts` and a CommonJS `.cts` file).
 *    - Runtime, with `import` (smoke.mjs) and with `require()` (smoke.cjs): every public value
 *      export, a compaction, a wrapped AI SDK model (`MockLanguageModelV3` / `V4`), a LangChain
 *      agent with a fake model, the MCP proxy over stdio through `npx spillway-mcp` and as a library,
 *      both in front of the real `@modelcontextprotocol/server-filesystem`.
 *    Under Node 20 (this process) and Node 22 (the `node` package from npm; ai 7 needs Node 22).
 *
 * Run: `pnpm build && pnpm test:packaging`. `SPILLWAY_PACKAGING_NODE22=/path/to/node` uses that
 * Node 22 instead of installing one; `SPILLWAY_PACKAGING_NODE22=skip` skips Node 22 (and so ai 7),
 * and says so. `SPILLWAY_PACKAGING_KEEP=1` keeps the scratch folder.
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const scratchSources = join(repositoryRoot, 'scripts/packaging/scratch');
const work = mkdtempSync(join(tmpdir(), 'spillway-packaging-'));
const started = Date.now();
let passed = 0;
const failures: string[] = [];

interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  [field: string]: unknown;
}

interface PackageInfo {
  directory: string;
  manifest: Manifest;
  tarball: string;
  /** Public names from src/index.ts. */
  values: string[];
  types: string[];
}

function log(line: string): void {
  console.log(line.startsWith('==') ? `${line} [${((Date.now() - started) / 1000).toFixed(0)} s]` : line);
}

function pass(what: string): void {
  passed++;
  log(`  ok    ${what}`);
}

function fail(what: string, detail = ''): void {
  failures.push(what);
  log(`  FAIL  ${what}${detail ? `\n${detail.replace(/^/gm, '        ')}` : ''}`);
}

function check(what: string, problems: string[]): void {
  if (problems.length === 0) pass(what);
  else fail(what, problems.join('\n'));
}

/** Runs a command to completion; never throws. */
function run(
  command: string,
  args: readonly string[],
  { cwd, env }: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd, env: env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', (error) => done({ code: 1, output: `${output}${error.message}` }));
    child.on('close', (code) => done({ code: code ?? 1, output }));
  });
}

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T;
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

async function packAndInspect(): Promise<PackageInfo[]> {
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
  ];
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

/** The ai SDK line a scratch project installs; undefined for a project without the AI SDK. */
interface Project {
  name: string;
  directory: string;
  packages: PackageInfo[];
  aiMajor?: number;
  /** Whether the project runs on Node 20 too (ai 7 needs Node 22). */
  node20: boolean;
}

function devRange(packages: PackageInfo[], packageName: string, dependency: string): string {
  const manifest = packages.find((info) => info.manifest.name === packageName)?.manifest;
  const all = {
    ...(manifest?.devDependencies as Record<string, string> | undefined),
    ...(manifest?.peerDependencies as Record<string, string> | undefined),
    ...(manifest?.dependencies as Record<string, string> | undefined),
  };
  const range = all[dependency];
  if (range === undefined) throw new Error(`${packageName} does not depend on ${dependency}`);
  return range;
}

/** The peer dependencies of all packages, by name, with their peer ranges. */
function allPeers(packages: PackageInfo[]): Record<string, string> {
  const peers: Record<string, string> = {};
  for (const info of packages) {
    const ranges = (info.manifest.peerDependencies ?? {}) as Record<string, string>;
    for (const [name, range] of Object.entries(ranges))
      if (!name.startsWith('@spillway/')) peers[name] = range;
  }
  return peers;
}

function identifier(packageName: string): string {
  return packageName
    .replace(/^@spillway\//, '')
    .replace(/[^a-zA-Z0-9]+(.)/g, (_, next: string) => next.toUpperCase());
}

/** A TypeScript file that imports every public name and uses each adapter with its framework. */
function typeCheckSource(project: Project): string {
  const lines = [
    '// Generated by scripts/packaging/run.ts: every public name, and a typed use of each adapter.',
  ];
  for (const info of project.packages) {
    const prefix = identifier(info.manifest.name);
    const specifiers = [
      ...info.values.map((name) => `${name} as ${prefix}_${name}`),
      ...info.types.map((name) => `type ${name} as ${prefix}_${name}`),
    ];
    lines.push(`import { ${specifiers.join(', ')} } from '${info.manifest.name}';`);
    lines.push(
      `export const ${prefix}Values = [${info.values.map((name) => `${prefix}_${name}`).join(', ')}];`,
    );
    if (info.types.length > 0) {
      lines.push(
        `export type ${prefix}Types = [${info.types.map((name) => `${prefix}_${name}`).join(', ')}];`,
      );
    }
  }
  const names = new Set(project.packages.map((info) => info.manifest.name));
  lines.push(
    "import { createCompactor, extractiveSummarizer, type Message } from '@spillway/core';",
    "const messages: Message[] = [{ role: 'user', content: 'Hello' }];",
    'export const prepared = createCompactor({ contextWindow: 128_000, summarizer: extractiveSummarizer }).prepare(messages, {',
    "  conversationId: 'c1',",
    '});',
  );
  if (names.has('@spillway/ai-sdk-middleware')) {
    const mock = (project.aiMajor ?? 6) >= 7 ? 'MockLanguageModelV4' : 'MockLanguageModelV3';
    lines.push(
      "import { generateText, wrapLanguageModel } from 'ai';",
      `import { ${mock} } from 'ai/test';`,
      "import { compactionMiddleware as aiSdkMiddleware } from '@spillway/ai-sdk-middleware';",
      'export const model = wrapLanguageModel({',
      `  model: new ${mock}(),`,
      "  middleware: aiSdkMiddleware({ contextWindow: 128_000, summarizer: 'extractive' }),",
      '});',
      'export const answer = () =>',
      "  generateText({ model, prompt: 'Hi', providerOptions: { spillway: { conversationId: 'c1' } } });",
    );
  }
  if (names.has('@spillway/langchain-memory')) {
    lines.push(
      "import { InMemoryChatMessageHistory } from '@langchain/core/chat_history';",
      "import { MemorySaver } from '@langchain/langgraph';",
      "import { createAgent, fakeModel } from 'langchain';",
      "import { CompactingChatMessageHistory, compactionMiddleware as langchainMiddleware } from '@spillway/langchain-memory';",
      'export const agent = createAgent({',
      '  model: fakeModel(),',
      '  tools: [],',
      '  middleware: [langchainMiddleware({ contextWindow: 128_000 })],',
      '  checkpointer: new MemorySaver(),',
      '});',
      'export const history = new CompactingChatMessageHistory({ history: new InMemoryChatMessageHistory(), contextWindow: 128_000 });',
    );
  }
  if (names.has('@spillway/redis')) {
    lines.push(
      "import { Redis } from 'ioredis';",
      "import { RedisCompactionStore } from '@spillway/redis';",
      "export const redisStore = () => new RedisCompactionStore({ client: new Redis(), keyPrefix: 'app:' });",
    );
  }
  if (names.has('@spillway/postgres')) {
    lines.push(
      "import { PGlite } from '@electric-sql/pglite';",
      "import { PostgresCompactionStore } from '@spillway/postgres';",
      "export const postgresStore = () => new PostgresCompactionStore({ client: new PGlite(), table: 'app.compaction' });",
    );
  }
  if (names.has('@spillway/mcp-proxy')) {
    lines.push(
      "import { createProxy, type ProxyOptions } from '@spillway/mcp-proxy';",
      "const proxyOptions: ProxyOptions = { upstream: { command: 'node', args: ['server.js'] }, maxResultTokens: 9000 };",
      'export const startProxy = () => createProxy(proxyOptions);',
    );
  }
  return `${lines.join('\n')}\n`;
}

async function createProject(project: Project, extraDependencies: Record<string, string>): Promise<void> {
  mkdirSync(project.directory, { recursive: true });
  const dependencies: Record<string, string> = {};
  for (const info of project.packages) dependencies[info.manifest.name] = `file:${info.tarball}`;
  Object.assign(dependencies, extraDependencies, {
    typescript: readJson<Manifest>(join(repositoryRoot, 'node_modules/typescript/package.json')).version,
    '@types/node': '^20.19.0',
  });
  writeFileSync(
    join(project.directory, 'package.json'),
    `${JSON.stringify({ name: `spillway-packaging-${project.name}`, private: true, dependencies }, null, 2)}\n`,
  );
  for (const file of ['smoke-body.cjs', 'smoke.mjs', 'smoke.cjs']) {
    copyFileSync(join(scratchSources, file), join(project.directory, file));
  }
  const exports = Object.fromEntries(project.packages.map((info) => [info.manifest.name, info.values]));
  writeFileSync(
    join(project.directory, 'smoke-config.json'),
    `${JSON.stringify({ exports, aiMajor: project.aiMajor, redisServer: findRedisServer() }, null, 2)}\n`,
  );
  const source = typeCheckSource(project);
  mkdirSync(join(project.directory, 'types'));
  for (const file of ['check.ts', 'check.mts', 'check.cts'])
    writeFileSync(join(project.directory, 'types', file), source);
  const compilerOptions = {
    target: 'es2022',
    strict: true,
    noEmit: true,
    // Checking every framework's declarations (LangChain's alone are large) would take minutes;
    // our own declarations are checked where they are used, and attw checks how they resolve.
    skipLibCheck: true,
    types: ['node'],
  };
  writeFileSync(
    join(project.directory, 'tsconfig.bundler.json'),
    JSON.stringify({
      compilerOptions: { ...compilerOptions, module: 'esnext', moduleResolution: 'bundler' },
      files: ['types/check.ts'],
    }),
  );
  writeFileSync(
    join(project.directory, 'tsconfig.nodenext.json'),
    JSON.stringify({
      compilerOptions: { ...compilerOptions, module: 'nodenext', moduleResolution: 'nodenext' },
      files: ['types/check.mts', 'types/check.cts'],
    }),
  );
  const install = await run(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'],
    {
      cwd: project.directory,
    },
  );
  if (install.code !== 0) throw new Error(`npm install failed in ${project.directory}\n${install.output}`);
  pass(
    `${project.name}: npm install of the tarballs (${project.packages.map((info) => info.manifest.name).join(', ')})`,
  );
}

/** The machine's `redis-server` (the OS package; the redis package's tests install it in CI). */
function findRedisServer(): string | undefined {
  const candidates = [
    process.env.REDIS_SERVER_BINARY,
    ...(process.env.PATH ?? '').split(delimiter).map((folder) => join(folder, 'redis-server')),
    '/usr/bin/redis-server',
    '/usr/local/bin/redis-server',
    '/usr/sbin/redis-server',
  ];
  return candidates.find((candidate) => candidate !== undefined && existsSync(candidate));
}

/** A Node 22 binary: SPILLWAY_PACKAGING_NODE22, or the `node` package from npm. */
async function node22(): Promise<string | undefined> {
  const configured = process.env.SPILLWAY_PACKAGING_NODE22;
  if (configured === 'skip') return undefined;
  if (configured) return configured;
  const prefix = join(work, 'node22');
  mkdirSync(prefix);
  writeFileSync(join(prefix, 'package.json'), '{"private":true}\n');
  const install = await run(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', 'node@22'],
    {
      cwd: prefix,
    },
  );
  const binary = join(prefix, 'node_modules/node/bin/node');
  if (install.code !== 0 || !existsSync(binary))
    throw new Error(`could not install Node 22 from npm\n${install.output}`);
  return binary;
}

function installedVersion(project: Project, name: string): string {
  const file = join(project.directory, 'node_modules', name, 'package.json');
  return existsSync(file) ? readJson<Manifest>(file).version : '—';
}

async function main(): Promise<void> {
  const packages = await packAndInspect();
  const byName = (name: string) => packages.filter((info) => info.manifest.name === name);
  const main: Project = { name: 'ai6', directory: join(work, 'ai6'), packages, aiMajor: 6, node20: true };
  const ai7: Project = {
    name: 'ai7',
    directory: join(work, 'ai7'),
    packages: [...byName('@spillway/core'), ...byName('@spillway/ai-sdk-middleware')],
    aiMajor: 7,
    node20: false,
  };
  log('== scratch projects (npm install from the tarballs)');
  const langchain = '@spillway/langchain-memory';
  const proxy = '@spillway/mcp-proxy';
  const [node22Binary] = await Promise.all([
    node22(),
    createProject(main, {
      // Every peer of every package, optional ones too (npm installs only the required ones), so
      // each public module loads; the frameworks the checks drive are pinned to a line below.
      ...allPeers(packages),
      ai: '^6',
      '@langchain/core': devRange(packages, langchain, '@langchain/core'),
      langchain: devRange(packages, langchain, 'langchain'),
      '@langchain/langgraph': devRange(packages, langchain, '@langchain/langgraph'),
      zod: devRange(packages, langchain, 'zod'),
      '@modelcontextprotocol/sdk': devRange(packages, proxy, '@modelcontextprotocol/sdk'),
      '@modelcontextprotocol/server-filesystem': devRange(
        packages,
        proxy,
        '@modelcontextprotocol/server-filesystem',
      ),
      ...(byName('@spillway/redis').length > 0
        ? { ioredis: devRange(packages, '@spillway/redis', 'ioredis') }
        : {}),
      ...(byName('@spillway/postgres').length > 0
        ? { '@electric-sql/pglite': devRange(packages, '@spillway/postgres', '@electric-sql/pglite') }
        : {}),
    }),
    createProject(ai7, { ai: '^7' }),
  ]);

  log('== TypeScript: every public name, bundler and nodenext (ESM .mts and CommonJS .cts)');
  const tsc = join(main.directory, 'node_modules/typescript/bin/tsc');
  await Promise.all(
    [main, ai7].flatMap((project) =>
      ['bundler', 'nodenext'].map(async (flavor) => {
        const result = await run(process.execPath, [tsc, '-p', `tsconfig.${flavor}.json`], {
          cwd: project.directory,
        });
        if (result.code === 0) pass(`${project.name}: tsc, moduleResolution ${flavor}`);
        else fail(`${project.name}: tsc, moduleResolution ${flavor}`, result.output);
      }),
    ),
  );

  const nodes: Array<{ label: string; binary: string }> = [
    { label: `Node ${process.versions.node}`, binary: process.execPath },
  ];
  if (node22Binary) {
    const version = spawnSync(node22Binary, ['--version'], { encoding: 'utf8' }).stdout.trim();
    nodes.push({ label: `Node ${version.replace(/^v/, '')}`, binary: node22Binary });
  } else log('  SKIP  Node 22 (SPILLWAY_PACKAGING_NODE22=skip): ai 7 and Node 22 are not tested in this run');

  for (const node of nodes) {
    const major = Number(node.label.split(' ')[1]!.split('.')[0]);
    log(`== runtime, ${node.label}: import and require(), a real call of each package`);
    for (const project of [main, ai7]) {
      if (major < 22 && !project.node20) continue;
      for (const entry of ['smoke.mjs', 'smoke.cjs']) {
        const env = { ...process.env, PATH: `${dirname(node.binary)}${delimiter}${process.env.PATH ?? ''}` };
        const result = await run(node.binary, [entry], { cwd: project.directory, env });
        const what = `${project.name}: ${entry} on ${node.label}`;
        if (result.code === 0) {
          pass(what);
          log(result.output.trimEnd().replace(/^/gm, '      '));
        } else fail(what, result.output);
      }
    }
  }

  log('== versions tested');
  const row = (what: string, value: string) => log(`  ${what.padEnd(28)} ${value}`);
  row('Node', nodes.map((node) => node.label.replace('Node ', '')).join(', '));
  row(
    'ai',
    `${installedVersion(main, 'ai')}${node22Binary ? `, ${installedVersion(ai7, 'ai')} (Node 22)` : ''}`,
  );
  for (const name of [
    'langchain',
    '@langchain/core',
    '@langchain/langgraph',
    'zod',
    '@modelcontextprotocol/sdk',
    'ioredis',
    'pg',
    '@electric-sql/pglite',
    'typescript',
  ]) {
    row(name, installedVersion(main, name));
  }
}

main()
  .catch((error: unknown) => {
    fail('packaging test', error instanceof Error ? (error.stack ?? error.message) : String(error));
  })
  .finally(() => {
    if (process.env.SPILLWAY_PACKAGING_KEEP) log(`scratch folder kept: ${work}`);
    else rmSync(work, { recursive: true, force: true });
    log(`packaging test: ${((Date.now() - started) / 1000).toFixed(0)} s`);
    log(`${passed} passed, ${failures.length} failed`);
    if (failures.length > 0) process.exitCode = 1;
  });
