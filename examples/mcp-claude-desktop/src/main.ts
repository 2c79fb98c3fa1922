// Starts spillway-mcp in front of @modelcontextprotocol/server-filesystem exactly as Claude Desktop
// would (a child process speaking MCP on stdio), lists the tools, reads a large file through it and
// prints the shortened result and one page of the cut part. Offline; exits non-zero if any of that
// did not happen.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const require = createRequire(import.meta.url);
const proxyDirectory = dirname(require.resolve('@spillway/mcp-proxy/package.json'));
const proxyCli = join(proxyDirectory, 'src', 'cli.ts'); // from source: no build needed
const filesystemServer = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');

// A 350 KB log file: what a model asking "what went wrong?" might read whole.
const directory = mkdtempSync(join(tmpdir(), 'spillway-example-'));
const lines = Array.from({ length: 5000 }, (_, index) => {
  const time = new Date(Date.UTC(2026, 0, 1, 0, 0, index)).toISOString();
  return `${time} INFO worker-${index % 8} processed batch ${index} in ${(index * 37) % 1000} ms`;
});
lines.push('2026-01-01T01:23:20.000Z ERROR worker-3 disk full while writing /var/data/batch-5000.parquet');
const log = `${lines.join('\n')}\n`;
const logPath = join(directory, 'service.log');
writeFileSync(logPath, log);

const budget = 1200; // tokens per result, small so the output fits a terminal (the default is 9000)
const config = {
  mcpServers: {
    filesystem: {
      command: 'npx',
      args: [
        '-y',
        '@spillway/mcp-proxy',
        '--',
        'npx',
        '-y',
        '@modelcontextprotocol/server-filesystem',
        '/Users/me/projects',
      ],
    },
  },
};

function check(condition: boolean, message: string): asserts condition {
  if (!condition) {
    console.error(`FAILED: ${message}`);
    process.exitCode = 1;
    throw new Error(message);
  }
}

const transport = new StdioClientTransport({
  command: process.execPath,
  args: [
    '--conditions=@spillway/source',
    '--import',
    'tsx',
    proxyCli,
    '--max-tokens',
    String(budget),
    '--',
    process.execPath,
    filesystemServer,
    directory,
  ],
  cwd: proxyDirectory,
  stderr: 'ignore',
});
const client = new Client({ name: 'example-claude-desktop', version: '1.0.0' });

try {
  console.log('claude_desktop_config.json entry:\n');
  console.log(JSON.stringify(config, null, 2));
  console.log('\nor, for Claude Code:\n');
  console.log(
    '  claude mcp add filesystem -- npx -y @spillway/mcp-proxy -- npx -y @modelcontextprotocol/server-filesystem ~/projects\n',
  );

  await client.connect(transport);
  const { tools } = await client.listTools();
  console.log(`connected through spillway-mcp to ${client.getServerVersion()?.name}; ${tools.length} tools:`);
  console.log(`  ${tools.map((tool) => tool.name).join(', ')}\n`);
  check(
    tools.some((tool) => tool.name === 'spillway_recall'),
    'the proxy adds spillway_recall',
  );

  const result = await client.callTool({ name: 'read_text_file', arguments: { path: logPath } });
  const text = (result.content as Array<{ type: string; text: string }>)[0]?.text ?? '';
  console.log(
    `read_text_file ${logPath}: ${log.length} characters in the file, ${text.length} in the result:\n`,
  );
  console.log(
    text
      .split('\n')
      .map((line) => `  | ${line}`)
      .join('\n'),
  );
  check(text.length < log.length / 10, 'the result was shortened');
  check(text.includes('disk full'), 'the tail (with the error) was kept');

  const marker = /spillway_recall with \{"ref":"([A-Za-z0-9_-]{22})","offset":(\d+)\}/.exec(text);
  check(marker !== null, 'the marker names the ref and the call that reads the rest');
  const [, ref, offset] = marker as unknown as [string, string, string];
  const page = await client.callTool({
    name: 'spillway_recall',
    arguments: { ref, offset: Number(offset), length: 600 },
  });
  const [header, body, next] = page.content as Array<{ text: string }>;
  console.log(`\nspillway_recall {"ref":"${ref}","offset":${offset},"length":600}:\n`);
  console.log(`  ${header?.text}`);
  console.log(
    (body?.text ?? '')
      .split('\n')
      .map((line) => `  | ${line}`)
      .join('\n'),
  );
  console.log(`  ${next?.text}`);
  check(
    body?.text === log.slice(Number(offset), Number(offset) + 600),
    'the page is exactly that part of the file',
  );

  // Search the cut part instead of paging through it: which batches were slow?
  const search = await client.callTool({
    name: 'spillway_recall',
    arguments: { ref, search: 'in 99\\d ms' },
  });
  const listing = (search.content as Array<{ text: string }>)[0]?.text ?? '';
  console.log(`\nspillway_recall {"ref":"${ref}","search":"in 99\\\\d ms"}:\n`);
  console.log(
    listing
      .split('\n')
      .map((line) => `  | ${line}`)
      .join('\n'),
  );
  const first = /\{"ref":"[^"]+","offset":(\d+)\}: /.exec(listing);
  check(first !== null, 'the search lists matching lines with their offsets');
  check(
    /^in 99\d ms/.test(log.slice(Number((first as RegExpExecArray)[1]))),
    'the offset of a match points at it',
  );
  console.log('\nOK: the model saw head and tail within budget, and can page through or search the rest.');
} finally {
  await client.close();
  rmSync(directory, { recursive: true, force: true });
}
