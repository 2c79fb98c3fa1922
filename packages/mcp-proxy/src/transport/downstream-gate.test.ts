import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import type { JSONRPCMessage } from '../sdk/mcp-sdk';
import { DownstreamGate } from './downstream-gate';

describe('DownstreamGate', () => {
  it('queues messages until released, tells about each, then replays them in order', async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const queued: string[] = [];
    const gate = new DownstreamGate(serverSide, {
      onQueued: (message) => queued.push((message as { method: string }).method),
    });
    await serverSide.start();
    await clientSide.start();
    const received: string[] = [];
    gate.onmessage = (message) => received.push((message as { method: string }).method);
    await clientSide.send({ jsonrpc: '2.0', id: 0, method: 'ping' } as JSONRPCMessage);
    await clientSide.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} } as JSONRPCMessage);
    expect(queued).toEqual(['ping', 'initialize']);
    expect(received).toEqual([]);
    gate.release();
    await clientSide.send({ jsonrpc: '2.0', method: 'notifications/initialized' } as JSONRPCMessage);
    expect(received).toEqual(['ping', 'initialize', 'notifications/initialized']);
  });
});
