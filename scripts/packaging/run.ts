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
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { packAndInspect } from './inspect-package';
import { fail, log, pass, started, tally } from './packaging-report';
import { run, work } from './packaging-shell';
import { allPeers, createProject, devRange, installedVersion, node22, type Project } from './scratch-project';

async function main(): Promise<void> {
  const packages = await packAndInspect();
  const byName = (name: string) => packages.filter((info) => info.manifest.name === name);
  const main: Project = { name: 'ai6', directory: join(work, 'ai6'), packages, aiMajor: 6, node20: true };
  const ai7: Project = {
    name: 'ai7',
    directory: join(work, 'ai7'),
    packages: [
      ...byName('@spillway/core'),
      ...byName('@spillway/ai-sdk-prompt'),
      ...byName('@spillway/ai-sdk-middleware'),
    ],
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
    '@mastra/core',
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
    log(`${tally.passed} passed, ${tally.failures.length} failed`);
    if (tally.failures.length > 0) process.exitCode = 1;
  });
