import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the server received. */
export interface RecordedRequest {
  url: string;
  // biome-ignore lint/suspicious/noExplicitAny: a provider's JSON body
  body: any;
  bytes: number;
}

/** What the handler answers: a status and a JSON body. */
export type Reply = { status: number; body: unknown };

/**
 * A real HTTP server on 127.0.0.1 (port 0) that records JSON requests and answers with what
 * `reply` returns: the provider packages talk to it exactly as they would to their API.
 */
export async function startLoopbackServer(reply: (request: RecordedRequest, index: number) => Reply) {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const recorded: RecordedRequest = {
        url: request.url ?? '',
        body: raw ? JSON.parse(raw) : undefined,
        bytes: raw.length,
      };
      requests.push(recorded);
      const { status, body } = reply(recorded, requests.length - 1);
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
