import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanUp, waitFor } from './helpers';

/** The client capabilities the suite declares, so that every server→client feature is exercised. */
export const everythingClientOptions = {
  capabilities: { sampling: {}, elicitation: { form: {} }, roots: { listChanged: true } },
};

/** Installs the client-side handlers for sampling, elicitation and roots, and records notifications. */
export function setUpEverythingClient(
  client: Client,
  seen: { logs: unknown[]; updates: string[]; samplingRequests: unknown[] },
) {
  client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
    seen.samplingRequests.push(request.params);
    return {
      model: 'test-model',
      role: 'assistant',
      content: { type: 'text', text: 'sampled by the test client' },
    };
  });
  client.setRequestHandler(ElicitRequestSchema, async () => ({
    action: 'accept',
    content: { name: 'Ada Lovelace', check: true, email: 'ada@example.com' },
  }));
  client.setRequestHandler(ListRootsRequestSchema, async () => ({
    roots: [{ uri: 'file:///tmp/spillway-root', name: 'spillway-root' }],
  }));
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    seen.logs.push(notification.params);
  });
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
    seen.updates.push(notification.params.uri);
  });
}

/**
 * The same checks over any downstream transport: `connect` returns an SDK client connected through
 * the proxy to @modelcontextprotocol/server-everything, set up with {@link setUpEverythingClient}.
 */
export function describeEverything(
  title: string,
  connect: (seen: { logs: unknown[]; updates: string[]; samplingRequests: unknown[] }) => Promise<Client>,
) {
  describe(title, () => {
    const seen = { logs: [] as unknown[], updates: [] as string[], samplingRequests: [] as unknown[] };
    let client: Client;

    beforeAll(async () => {
      client = await connect(seen);
    });
    afterAll(cleanUp);

    it('mirrors the upstream identity and capabilities (tools.listChanged added)', () => {
      expect(client.getServerVersion()?.name).toBe('mcp-servers/everything');
      const capabilities = client.getServerCapabilities();
      expect(capabilities?.resources).toEqual({ subscribe: true, listChanged: true });
      expect(capabilities?.prompts).toEqual({ listChanged: true });
      expect(capabilities?.logging).toEqual({});
      expect(capabilities?.completions).toEqual({});
      expect(capabilities?.tools?.listChanged).toBe(true);
    });

    it('lists every upstream tool, including the capability-gated ones, plus the paging tool', async () => {
      const { tools } = await client.listTools();
      const names = tools.map((tool) => tool.name);
      for (const name of [
        'echo',
        'get-sum',
        'get-tiny-image',
        'get-structured-content',
        'trigger-long-running-operation',
      ]) {
        expect(names).toContain(name);
      }
      // Registered by the upstream only because the client's capabilities were passed on.
      expect(names).toContain('trigger-sampling-request');
      expect(names).toContain('trigger-elicitation-request');
      expect(names).toContain('get-roots-list');
      expect(names.at(-1)).toBe('spillway_recall');
    });

    it('calls plain tools and passes small images through untouched', async () => {
      expect(await client.callTool({ name: 'echo', arguments: { message: 'héllo 👋' } })).toEqual({
        content: [{ type: 'text', text: 'Echo: héllo 👋' }],
      });
      const sum = await client.callTool({ name: 'get-sum', arguments: { a: 2, b: 40 } });
      expect(JSON.stringify(sum.content)).toContain('42');
      const image = await client.callTool({ name: 'get-tiny-image', arguments: {} });
      const block = (image.content as Array<{ type: string; data?: string }>).find(
        (item) => item.type === 'image',
      );
      expect(block?.data?.length).toBeGreaterThan(100);
    });

    it('passes annotations, resource links, embedded resources and the environment tool through', async () => {
      const annotated = await client.callTool({
        name: 'get-annotated-message',
        arguments: { messageType: 'error', includeImage: true },
      });
      const blocks = annotated.content as Array<{ type: string; annotations?: unknown }>;
      expect(blocks.some((block) => block.annotations !== undefined)).toBe(true);
      expect(blocks.some((block) => block.type === 'image')).toBe(true);
      const links = await client.callTool({ name: 'get-resource-links', arguments: { count: 2 } });
      expect(
        (links.content as Array<{ type: string }>).filter((block) => block.type === 'resource_link'),
      ).toHaveLength(2);
      for (const resourceType of ['Text', 'Blob']) {
        const reference = await client.callTool({
          name: 'get-resource-reference',
          arguments: { resourceType, resourceId: 2 },
        });
        const embedded = (reference.content as Array<{ type: string; resource?: { uri: string } }>).find(
          (block) => block.type === 'resource',
        );
        expect(embedded?.resource?.uri).toMatch(/demo:\/\/resource\/(static|dynamic)\//);
      }
      const environment = await client.callTool({ name: 'get-env', arguments: {} });
      expect(JSON.stringify(environment.content)).toContain('PATH');
    });

    it('passes structured content that the SDK client validates against the outputSchema', async () => {
      await client.listTools();
      const result = await client.callTool({
        name: 'get-structured-content',
        arguments: { location: 'New York' },
      });
      expect(result.structuredContent).toMatchObject({ temperature: expect.any(Number) });
    });

    it('re-tags progress to the client token (the SDK matches it) and finishes the call', async () => {
      const progress: number[] = [];
      const result = await client.callTool(
        { name: 'trigger-long-running-operation', arguments: { duration: 0.3, steps: 3 } },
        undefined,
        { onprogress: (update) => progress.push(update.progress), resetTimeoutOnProgress: true },
      );
      // The SDK v1 client may drop the last update when it arrives in the same read as the result
      // (typescript-sdk#2580, a client-side race); the earlier ones always arrive, in order.
      expect(progress.slice(0, 2)).toEqual([1, 2]);
      expect([2, 3]).toContain(progress.length);
      expect(JSON.stringify(result.content)).toContain('Long running operation completed');
    });

    it('forwards sampling, elicitation and roots requests from the server to the client', async () => {
      const sampled = await client.callTool({
        name: 'trigger-sampling-request',
        arguments: { prompt: 'Say hi', maxTokens: 20 },
      });
      expect(JSON.stringify(sampled.content)).toContain('sampled by the test client');
      expect(seen.samplingRequests.length).toBeGreaterThan(0);
      const elicited = await client.callTool({ name: 'trigger-elicitation-request', arguments: {} });
      expect(JSON.stringify(elicited.content)).toContain('Ada Lovelace');
      const roots = await client.callTool({ name: 'get-roots-list', arguments: {} });
      expect(JSON.stringify(roots.content)).toContain('spillway-root');
    });

    it('forwards resources: list, templates, read, subscribe and updates', async () => {
      const templates = await client.listResourceTemplates();
      expect(templates.resourceTemplates.length).toBeGreaterThan(0);
      const resources = await client.listResources();
      expect(Array.isArray(resources.resources)).toBe(true);
      const read = await client.readResource({ uri: 'demo://resource/dynamic/text/1' });
      expect(JSON.stringify(read.contents)).toContain('demo://resource/dynamic/text/1');
      await client.subscribeResource({ uri: 'demo://resource/dynamic/text/1' });
      await client.callTool({ name: 'toggle-subscriber-updates', arguments: {} });
      await waitFor(() => seen.updates.includes('demo://resource/dynamic/text/1'), {
        what: 'a resource update',
      });
      await client.unsubscribeResource({ uri: 'demo://resource/dynamic/text/1' });
      await client.callTool({ name: 'toggle-subscriber-updates', arguments: {} });
    });

    it('forwards prompts and completion', async () => {
      const { prompts } = await client.listPrompts();
      expect(prompts.map((prompt) => prompt.name)).toContain('simple-prompt');
      const prompt = await client.getPrompt({ name: 'simple-prompt' });
      expect(prompt.messages.length).toBeGreaterThan(0);
      const completion = await client.complete({
        ref: { type: 'ref/prompt', name: 'completable-prompt' },
        argument: { name: 'department', value: 'Eng' },
      });
      expect(completion.completion.values).toEqual(['Engineering']);
    });

    it('forwards logging/setLevel and logging notifications, and ping', async () => {
      await client.setLoggingLevel('debug');
      await client.callTool({ name: 'toggle-simulated-logging', arguments: {} });
      await waitFor(() => seen.logs.length > 0, { what: 'a log message' });
      await client.callTool({ name: 'toggle-simulated-logging', arguments: {} });
      expect(await client.ping()).toEqual({});
    });

    it('runs a task-augmented tool call (tasks/get, tasks/result) and truncates its result by tool', async () => {
      const messages: string[] = [];
      let final: { content?: Array<{ type: string; text?: string }> } | undefined;
      for await (const message of client.experimental.tasks.callToolStream(
        { name: 'simulate-research-query', arguments: { topic: 'context windows' } },
        undefined,
        { timeout: 60_000 },
      )) {
        messages.push(message.type);
        if (message.type === 'result') final = message.result as typeof final;
        if (message.type === 'error') throw message.error;
      }
      expect(messages[0]).toBe('taskCreated');
      expect(messages.at(-1)).toBe('result');
      const text = (final?.content ?? []).map((block) => block.text ?? '').join('');
      // The suite runs the proxy with --tool simulate-research-query=150.
      expect(text).toMatch(/\[spillway-mcp: cut \d+ of \d+ characters/);
    });

    it('answers an unknown method with the upstream error code', async () => {
      await expect(
        client.request(
          { method: 'no/such-method', params: {} } as never,
          (await import('@modelcontextprotocol/sdk/types.js')).ResultSchema,
        ),
      ).rejects.toMatchObject({
        code: -32601,
      });
    });
  });
}
