'use strict';
/**
 * The runtime half of the packaging test, shared by `smoke.mjs` (ESM) and `smoke.cjs` (CommonJS).
 * Every module is loaded through `load`, so the entry file's module system is the one under test:
 * `import()` from smoke.mjs, `require()` from smoke.cjs — for the Spillway packages and for the
 * frameworks whose objects they must recognise (a CommonJS @langchain/core message is not an ESM one).
 */
const assert = require('node:assert/strict');
const { mkdtempSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const path = require('node:path');

/** A tool output of about `chars` characters, line by line like a log or a source file. */
function bigText(label, chars) {
  const lines = [];
  let length = 0;
  for (let line = 0; length < chars; line++) {
    const text = `${label} line ${line}: export const value${line} = compute(${(line * 7919) % 100_000});`;
    lines.push(text);
    length += text.length + 1;
  }
  return lines.join('\n');
}

/**
 * @param {object} options
 * @param {'esm' | 'cjs'} options.system
 * @param {(specifier: string) => Promise<any>} options.load
 * @param {string} options.projectDirectory
 */
async function runSmoke({ system, load, projectDirectory }) {
  const config = JSON.parse(readFileSync(path.join(projectDirectory, 'smoke-config.json'), 'utf8'));
  const label = `${system} node ${process.versions.node}${config.aiMajor ? ` ai ${config.aiMajor}` : ''}`;
  let passed = 0;
  const check = async (name, body) => {
    const started = Date.now();
    try {
      await body();
    } catch (error) {
      console.error(`  FAIL  [${label}] ${name}`);
      throw error;
    }
    passed++;
    console.log(`  ok    [${label}] ${name} (${Date.now() - started} ms)`);
  };

  for (const [name, values] of Object.entries(config.exports)) {
    await check(`${name}: every public value export is there`, async () => {
      const module = await load(name);
      const actual = Object.keys(module)
        .filter((key) => key !== 'default' && key !== 'module.exports')
        .sort();
      assert.deepEqual(actual, [...values].sort());
      for (const value of values) assert.notEqual(module[value], undefined, `${name}.${value} is undefined`);
    });
  }

  const core = await load('@spillway/core');
  await check(
    '@spillway/core: compactMessages brings a 180k-token conversation under the threshold',
    async () => {
      const messages = [];
      for (let turn = 0; turn < 12; turn++) {
        messages.push(
          { role: 'user', content: `Please read src/module-${turn}.ts and tell me what it exports.` },
          {
            role: 'assistant',
            content: [
              {
                type: 'tool-call',
                toolCallId: `c${turn}`,
                toolName: 'read_file',
                input: { path: `src/module-${turn}.ts` },
              },
            ],
          },
          {
            role: 'tool',
            content: [
              {
                type: 'tool-result',
                toolCallId: `c${turn}`,
                toolName: 'read_file',
                content: bigText(`m${turn}`, 60_000),
              },
            ],
          },
          { role: 'assistant', content: `src/module-${turn}.ts exports many values.` },
        );
      }
      messages.push({ role: 'user', content: 'Which module exports value42?' });
      const contextWindow = 32_000;
      const before = core.estimateTokens(messages);
      const result = await core.compactMessages(messages, {
        contextWindow,
        summarizer: core.extractiveSummarizer,
      });
      const after = core.estimateTokens(result.messages);
      assert.ok(before > 4 * contextWindow, `the input is large (${before} tokens)`);
      assert.ok(after <= contextWindow * core.COMPACT_THRESHOLD_RATIO, `compacted to ${after} tokens`);
      assert.equal(result.messages.at(-1), messages.at(-1), 'the latest user message is the same object');
      assert.equal(core.truncateToolResult('x'.repeat(40_000)).length < 40_000, true);
      let error;
      try {
        await core.compactMessages(messages, { contextWindow: -5 });
      } catch (caught) {
        error = caught;
      }
      assert.ok(core.SpillwayError.isInstance(error), 'a bad option throws a SpillwayError');
      assert.ok(error instanceof core.InvalidConfigError, 'namely InvalidConfigError');
    },
  );

  if (config.exports['@spillway/ai-sdk-middleware']) {
    await check(
      `@spillway/ai-sdk-middleware: generateText through wrapLanguageModel (ai ${config.aiMajor})`,
      async () => {
        const ai = await load('ai');
        const aiTest = await load('ai/test');
        const { compactionMiddleware } = await load('@spillway/ai-sdk-middleware');
        const Mock = config.aiMajor >= 7 ? aiTest.MockLanguageModelV4 : aiTest.MockLanguageModelV3;
        const usage = {
          inputTokens: { total: 100, noCache: 100, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 5, text: 5, reasoning: undefined },
        };
        const prompts = [];
        const model = new Mock({
          modelId: 'mock-model',
          doGenerate: async (options) => {
            prompts.push(options.prompt);
            return {
              content: [{ type: 'text', text: 'It is src/module-3.ts.' }],
              finishReason: { unified: 'stop', raw: 'stop' },
              usage,
              warnings: [],
            };
          },
        });
        const messages = [];
        for (let turn = 0; turn < 8; turn++) {
          messages.push(
            { role: 'user', content: `Read src/module-${turn}.ts` },
            {
              role: 'assistant',
              content: [
                {
                  type: 'tool-call',
                  toolCallId: `c${turn}`,
                  toolName: 'read_file',
                  input: { path: `src/module-${turn}.ts` },
                },
              ],
            },
            {
              role: 'tool',
              content: [
                {
                  type: 'tool-result',
                  toolCallId: `c${turn}`,
                  toolName: 'read_file',
                  output: { type: 'text', value: bigText(`m${turn}`, 40_000) },
                },
              ],
            },
          );
        }
        messages.push({ role: 'user', content: 'Which module exports value42?' });
        const events = [];
        const wrapped = ai.wrapLanguageModel({
          model,
          middleware: compactionMiddleware({
            contextWindow: 16_000,
            summarizer: 'extractive',
            onEvent: (event) => events.push(event.type),
          }),
        });
        const result = await ai.generateText({
          model: wrapped,
          messages,
          providerOptions: { spillway: { conversationId: 'smoke' } },
        });
        assert.equal(result.text, 'It is src/module-3.ts.');
        assert.equal(prompts.length, 1);
        const sent = core.estimateTokens(JSON.stringify(prompts[0]));
        const original = core.estimateTokens(JSON.stringify(messages));
        assert.ok(
          sent < 16_000,
          `the prompt the model got is within the window (${sent} tokens, ${original} before)`,
        );
        assert.ok(events.length > 0, 'compaction events were reported');
        assert.equal(
          JSON.stringify(prompts[0]).includes('"spillway"'),
          false,
          'providerOptions.spillway was removed',
        );
      },
    );
  }

  if (config.exports['@spillway/langchain-memory']) {
    const { AIMessage, HumanMessage, ToolMessage } = await load('@langchain/core/messages');
    const { createAgent, fakeModel } = await load('langchain');
    const { ContextOverflowError } = await load('@langchain/core/errors');
    const memory = await load('@spillway/langchain-memory');
    await check(
      '@spillway/langchain-memory: createAgent with the middleware and a fake model, overflow retried',
      async () => {
        const model = fakeModel()
          .respond(new ContextOverflowError('prompt is too long: 210000 tokens > 200000 maximum'))
          .respond(new AIMessage('Answered after the retry.'));
        const history = [];
        for (let turn = 0; turn < 6; turn++) {
          history.push(
            new HumanMessage(`Question ${turn}`),
            new AIMessage({
              content: '',
              tool_calls: [{ id: `c${turn}`, name: 'read_file', args: { path: `f${turn}` } }],
            }),
            new ToolMessage({
              tool_call_id: `c${turn}`,
              name: 'read_file',
              content: bigText(`f${turn}`, 20_000),
            }),
            new AIMessage(`Answer ${turn}`),
          );
        }
        const events = [];
        const agent = createAgent({
          model,
          tools: [],
          middleware: [
            memory.compactionMiddleware({
              summarizer: core.extractiveSummarizer,
              onEvent: (event) => events.push(event.type),
            }),
          ],
        });
        const result = await agent.invoke({ messages: [...history, new HumanMessage('And now?')] });
        assert.equal(result.messages.at(-1).text, 'Answered after the retry.');
        assert.equal(result.messages.length, history.length + 2, 'the agent state keeps every message');
        assert.equal(model.callCount, 2);
        const size = (call) => call.messages.reduce((sum, message) => sum + message.text.length, 0);
        assert.ok(size(model.calls[1]) < size(model.calls[0]) / 2, 'the retry sent a compacted prompt');
        assert.ok(events.includes('overflow-retry'));
      },
    );
    await check('@spillway/langchain-memory: CompactingChatMessageHistory caps and compacts', async () => {
      const { InMemoryChatMessageHistory } = await load('@langchain/core/chat_history');
      const history = new memory.CompactingChatMessageHistory({
        history: new InMemoryChatMessageHistory(),
        conversationId: 'smoke',
        contextWindow: 8000,
      });
      for (let turn = 0; turn < 5; turn++) {
        await history.addMessages([
          new HumanMessage(`Read f${turn}`),
          new AIMessage({
            content: '',
            tool_calls: [{ id: `c${turn}`, name: 'read_file', args: { path: `f${turn}` } }],
          }),
          new ToolMessage({
            tool_call_id: `c${turn}`,
            name: 'read_file',
            content: bigText(`f${turn}`, 40_000),
          }),
          new AIMessage(`Read f${turn}.`),
        ]);
      }
      const stored = await history.getOriginalMessages();
      assert.equal(stored.length, 20, 'every message is stored');
      assert.ok(stored[2].content.length < 40_000, 'tool results are capped at storage time');
      const view = await history.getMessages();
      const viewTokens = core.estimateTokens(view.map((message) => message.text).join('\n'));
      assert.ok(viewTokens < 8000, `the prompt view fits the window (${viewTokens} tokens)`);
    });
  }

  if (config.exports['@spillway/mcp-proxy']) {
    const { Client } = await load('@modelcontextprotocol/sdk/client/index.js');
    const root = mkdtempSync(path.join(tmpdir(), 'spillway-mcp-smoke-'));
    const file = path.join(root, 'big.log');
    const content = bigText('log', 300_000);
    writeFileSync(file, content);
    const server = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js', {
      paths: [projectDirectory],
    });
    const exercise = async (client) => {
      const result = await client.callTool({ name: 'read_text_file', arguments: { path: file } });
      const text = result.content.map((block) => block.text ?? '').join('\n');
      assert.ok(text.length < content.length / 5, `the result was cut (${text.length} characters)`);
      // The marker names the read-back tool and its arguments, e.g. `call the tool spillway_recall
      // with {"ref":"…","offset":1617}`.
      const marker = /call the tool (\w+) with (\{[^}]*\})/.exec(text);
      assert.ok(marker, `the marker says how to read the rest: ${text.slice(0, 300)}`);
      const input = JSON.parse(marker[2]);
      const page = await client.callTool({ name: marker[1], arguments: { ...input, length: 2000 } });
      assert.ok(!page.isError, `the read-back tool answered: ${JSON.stringify(page.content).slice(0, 300)}`);
      const expected = content.slice(input.offset, input.offset + 2000);
      assert.ok(
        page.content.some((block) => block.text === expected),
        'the read-back tool returned exactly the cut text',
      );
    };
    try {
      if (system === 'esm') {
        await check(
          '@spillway/mcp-proxy: npx spillway-mcp over stdio in front of server-filesystem',
          async () => {
            const { StdioClientTransport } = await load('@modelcontextprotocol/sdk/client/stdio.js');
            const version = (await load('@spillway/mcp-proxy')).VERSION;
            const transport = new StdioClientTransport({
              command: 'npx',
              args: ['--no', '--', 'spillway-mcp', '--', process.execPath, server, root],
              cwd: projectDirectory,
              env: { ...process.env },
              stderr: 'pipe',
            });
            const client = new Client({ name: 'packaging-smoke', version: '1.0.0' });
            await client.connect(transport);
            try {
              await exercise(client);
            } finally {
              await client.close();
            }
            // The bin as users run it: --version, and a usage error (exit 2, as --help says).
            const { spawnSync } = require('node:child_process');
            const cli = (args) =>
              spawnSync('npx', ['--no', '--', 'spillway-mcp', ...args], {
                cwd: projectDirectory,
                encoding: 'utf8',
              });
            const printed = cli(['--version']);
            assert.equal(printed.status, 0, printed.stderr);
            assert.equal(printed.stdout.trim(), version);
            const usage = cli(['--no-such-flag', '--', process.execPath, server, root]);
            assert.equal(usage.status, 2, `a bad flag exits 2 (got ${usage.status}): ${usage.stderr}`);
          },
        );
      } else {
        await check('@spillway/mcp-proxy: createProxy (library) in front of server-filesystem', async () => {
          const { InMemoryTransport } = await load('@modelcontextprotocol/sdk/inMemory.js');
          const { createProxy } = await load('@spillway/mcp-proxy');
          const proxy = createProxy({ upstream: { command: process.execPath, args: [server, root] } });
          const [clientSide, proxySide] = InMemoryTransport.createLinkedPair();
          await proxy.connect(proxySide);
          const client = new Client({ name: 'packaging-smoke', version: '1.0.0' });
          await client.connect(clientSide);
          try {
            await exercise(client);
          } finally {
            await client.close();
            await proxy.close();
          }
        });
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }
  if (config.exports['@spillway/redis']) {
    await check('@spillway/redis: RedisCompactionStore on a real redis-server (ioredis)', async () => {
      const { RedisCompactionStore } = await load('@spillway/redis');
      const { Redis } = await load('ioredis');
      const server = await startRedisServer(config.redisServer);
      const client = new Redis({
        port: server.port,
        host: '127.0.0.1',
        lazyConnect: true,
        maxRetriesPerRequest: 1,
      });
      try {
        await client.connect();
        const store = new RedisCompactionStore({ client, keyPrefix: 'packaging:' });
        const compactor = core.createCompactor({ contextWindow: 16_000, store });
        const messages = [];
        for (let turn = 0; turn < 6; turn++) {
          messages.push(
            { role: 'user', content: `Please read src/module-${turn}.ts` },
            { role: 'assistant', content: `src/module-${turn}.ts: ${bigText(`m${turn}`, 12_000)}` },
          );
        }
        messages.push({ role: 'user', content: 'Which module exports value42?' });
        const prepared = await compactor.prepare(messages, { conversationId: 'packaging' });
        assert.ok(prepared.estimatedTokens < 16_000, `the request fits (${prepared.estimatedTokens} tokens)`);
        const stored = await store.get('packaging');
        assert.ok(stored, 'the compaction state is in Redis');
        assert.ok((await client.get('packaging:{packaging}')) !== null, 'under the documented key');
        await store.delete('packaging');
        assert.equal(await store.get('packaging'), undefined);
      } finally {
        client.disconnect();
        server.stop();
      }
    });
  }
  if (config.exports['@spillway/postgres']) {
    await check(
      '@spillway/postgres: PostgresCompactionStore on PGlite (Postgres in WebAssembly)',
      async () => {
        const { PostgresCompactionStore } = await load('@spillway/postgres');
        const { PGlite } = await load('@electric-sql/pglite');
        const database = new PGlite();
        try {
          const store = new PostgresCompactionStore({ client: database, table: 'packaging_compaction' });
          await store.ensureSchema();
          const compactor = core.createCompactor({ contextWindow: 16_000, store });
          const messages = [];
          for (let turn = 0; turn < 6; turn++) {
            messages.push(
              { role: 'user', content: `Please read src/module-${turn}.ts` },
              { role: 'assistant', content: `src/module-${turn}.ts: ${bigText(`m${turn}`, 12_000)}` },
            );
          }
          messages.push({ role: 'user', content: 'Which module exports value42?' });
          const prepared = await compactor.prepare(messages, { conversationId: 'packaging' });
          assert.ok(
            prepared.estimatedTokens < 16_000,
            `the request fits (${prepared.estimatedTokens} tokens)`,
          );
          assert.ok(await store.get('packaging'), 'the compaction state is in Postgres');
          const { rows } = await database.query('SELECT count(*)::int AS count FROM packaging_compaction');
          assert.equal(rows[0].count, 1);
          await store.delete('packaging');
          assert.equal(await store.get('packaging'), undefined);
          assert.equal(typeof (await store.prune()), 'number');
        } finally {
          await database.close();
        }
      },
    );
  }
  if (config.exports['@spillway/mastra']) {
    await check(
      '@spillway/mastra: a real Mastra Agent sends a compacted request through the processor',
      async () => {
        const { Agent } = await load('@mastra/core/agent');
        const { MockLanguageModelV3 } = await load('ai/test');
        const { compactionProcessor, recallTool } = await load('@spillway/mastra');
        const prompts = [];
        const model = new MockLanguageModelV3({
          doGenerate: async ({ prompt }) => {
            prompts.push(prompt);
            return {
              content: [{ type: 'text', text: 'Done.' }],
              finishReason: { unified: 'stop', raw: 'stop' },
              usage: {
                inputTokens: { total: 100, noCache: 100, cacheRead: undefined, cacheWrite: undefined },
                outputTokens: { total: 5, text: 5, reasoning: undefined },
              },
              warnings: [],
            };
          },
        });
        const spillway = compactionProcessor({ contextWindow: 16_000, summarizer: 'extractive' });
        const agent = new Agent({
          id: 'packaging',
          name: 'packaging',
          instructions: 'You are helpful.',
          model,
          tools: { spillway_recall: recallTool() },
          inputProcessors: [spillway],
          errorProcessors: [spillway],
        });
        const history = [];
        for (let turn = 0; turn < 6; turn++) {
          history.push(
            { role: 'user', content: `Please read src/module-${turn}.ts` },
            { role: 'assistant', content: `src/module-${turn}.ts: ${bigText(`m${turn}`, 12_000)}` },
          );
        }
        history.push({ role: 'user', content: 'Which module exports value42?' });
        const result = await agent.generate(history);
        assert.equal(result.text, 'Done.');
        const sent = JSON.stringify(prompts.at(-1));
        assert.ok(
          sent.length < JSON.stringify(history).length / 2,
          `the request was compacted (${sent.length} characters)`,
        );
        assert.ok(sent.includes('Which module exports value42?'), 'the latest ask went out');
        await spillway.compactor.idle();
      },
    );
  }
  console.log(`  ${passed} passed [${label}]`);
}

/** A redis-server of the machine's own (the OS package) on a free loopback port, keeping nothing on disk. */
async function startRedisServer(binary) {
  assert.ok(binary, 'redis-server is not installed (Debian: apt-get install -y redis-server)');
  const { spawn } = require('node:child_process');
  const net = require('node:net');
  const port = await new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address();
      probe.close(() => resolve(free));
    });
  });
  const child = spawn(
    binary,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 30_000);
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}:\n${output}`));
    });
  });
  return { port, stop: () => child.kill() };
}

module.exports = { runSmoke };
