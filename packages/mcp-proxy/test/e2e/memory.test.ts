import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { estimateTokens } from '@spillway/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanUp, connectThroughProxy, memoryBin } from './helpers';

describe('server-memory (structured output) through spillway-mcp', () => {
  const directory = mkdtempSync(join(tmpdir(), 'spillway-memory-'));
  let client: Client;

  beforeAll(async () => {
    ({ client } = await connectThroughProxy({
      proxyArgs: ['--max-tokens', '3000'],
      upstream: [process.execPath, memoryBin],
      env: { MEMORY_FILE_PATH: join(directory, 'memory.jsonl') },
    }));
  });
  afterAll(async () => {
    await cleanUp();
    rmSync(directory, { recursive: true, force: true });
  });

  it('passes small structured results through exactly', async () => {
    const created = await client.callTool({
      name: 'create_entities',
      arguments: {
        entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }],
      },
    });
    expect(created.structuredContent).toEqual({
      entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }],
    });
  });

  it('shortens a large graph so that it fits the budget and still validates against the outputSchema', async () => {
    const { tools } = await client.listTools();
    expect(tools.find((tool) => tool.name === 'read_graph')?.outputSchema).toBeDefined();
    const entities = Array.from({ length: 300 }, (_, index) => ({
      name: `entity-${index}`,
      entityType: 'thing',
      observations: [`observation ${index} `.repeat(40)],
    }));
    await client.callTool({ name: 'create_entities', arguments: { entities } });
    // The SDK client validates structuredContent against the tool's outputSchema and throws if invalid.
    const graph = await client.callTool({ name: 'read_graph', arguments: {} });
    const structured = graph.structuredContent as { entities: unknown[] };
    expect(estimateTokens(JSON.stringify(structured))).toBeLessThanOrEqual(3000);
    expect(structured.entities.length).toBeGreaterThan(0);
    expect(structured.entities.length).toBeLessThan(301);
    const text = (graph.content as Array<{ text: string }>).map((block) => block.text).join('\n');
    expect(text).toMatch(/shortened this structured content/);
    expect(text).toMatch(/\$\.entities: kept \d+ of 301 items/);
  });
});
