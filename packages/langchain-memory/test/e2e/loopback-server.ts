import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import {
  createServer as createHttp2Server,
  type Http2ServerRequest,
  type Http2ServerResponse,
} from 'node:http2';
import type { AddressInfo } from 'node:net';

/** One request the server received. */
export interface RecordedRequest {
  method: string;
  url: string;
  // biome-ignore lint/suspicious/noExplicitAny: a provider's JSON body
  body: any;
}

/**
 * A real HTTP server on 127.0.0.1 (port 0) that records JSON requests and answers with what
 * `reply` returns: the provider packages talk to it exactly as they would to their API. `http2`:
 * cleartext HTTP/2 (what the AWS SDK's Bedrock runtime client speaks).
 */
export async function startLoopbackServer(
  reply: (request: RecordedRequest) => unknown,
  { http2 = false }: { http2?: boolean } = {},
) {
  const requests: RecordedRequest[] = [];
  const handle = (
    request: IncomingMessage | Http2ServerRequest,
    response: ServerResponse | Http2ServerResponse,
  ) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const recorded: RecordedRequest = {
        method: request.method ?? 'GET',
        url: request.url ?? '',
        body: raw ? JSON.parse(raw) : undefined,
      };
      requests.push(recorded);
      const body = JSON.stringify(reply(recorded));
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(body);
    });
  };
  const server = http2 ? createHttp2Server(handle) : createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
