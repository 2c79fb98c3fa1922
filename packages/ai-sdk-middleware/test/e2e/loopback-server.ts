import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the server received. */
export interface RecordedRequest {
  /** The path and query, e.g. `/v1/chat/completions`. */
  url: string;
  // biome-ignore lint/suspicious/noExplicitAny: a provider's JSON body
  body: any;
  /** The body as received (what the provider's request builder wrote). */
  raw: string;
  bytes: number;
}

/**
 * What the handler answers: a status and a JSON body, or (status 200) a server-sent event stream
 * given as its events, each `{ event, data }` (`event` omitted for `data:`-only streams such as
 * OpenAI's and Google's).
 */
export type Reply =
  | { status: number; body: unknown }
  | { status?: 200; events: readonly { event?: string; data: unknown }[] };

/**
 * A real HTTP server on 127.0.0.1 (port 0) that records JSON requests and answers with what
 * `reply` returns: the provider packages talk to it exactly as they would to their API.
 * `baseURL` ends in `basePath` (`/v1` for OpenAI and Anthropic, `/v1beta` for Google).
 */
export async function startLoopbackServer(
  reply: (request: RecordedRequest, index: number) => Reply,
  { basePath = '/v1' }: { basePath?: string } = {},
) {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const recorded: RecordedRequest = {
        url: request.url ?? '',
        body: raw ? JSON.parse(raw) : undefined,
        raw,
        bytes: raw.length,
      };
      requests.push(recorded);
      let answer: Reply;
      try {
        answer = reply(recorded, requests.length - 1);
      } catch (error) {
        answer = { status: 500, body: { error: { message: String(error) } } };
      }
      if ('events' in answer) {
        response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        for (const { event, data } of answer.events) {
          response.write(
            `${event === undefined ? '' : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`,
          );
        }
        response.end();
        return;
      }
      response.writeHead(answer.status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}${basePath}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
