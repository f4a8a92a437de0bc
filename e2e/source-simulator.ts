import {
  createServer,
  type IncomingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext } from '@playwright/test';

// The source simulators' shared part: a small HTTP server started by a test on 127.0.0.1, which
// records every request it answers (what each simulator keeps of one is its own), and hands the
// browser's requests to a real source's address (https://api.legiscan.com/…) to itself through
// Playwright's routing, which also sees the import worker's requests.

/** A request as a simulator sees it. */
export interface SimulatedRequest {
  method: string;
  /** The request's address, on the simulator. */
  url: URL;
  headers: IncomingHttpHeaders;
  /** It came through the Docket server's source relay. */
  relayed: boolean;
}

export abstract class SourceSimulatorServer<Recorded> {
  /** What `answer` recorded of each request, in order. */
  readonly requests: Recorded[] = [];
  private server: Server | null = null;

  /** Answers one request and says what to record of it (undefined: nothing). */
  protected abstract answer(
    request: SimulatedRequest,
    response: ServerResponse,
  ): Recorded | undefined;

  /** Starts listening (on `port`, or any free one) and gives the simulator's origin. */
  async start(port = 0): Promise<string> {
    this.server = createServer((request, response) => {
      // One request a connection: Playwright's route.fetch reuses a kept-alive connection, and
      // one reused just as Node's keep-alive timeout (5 s) closed it failed with ECONNRESET,
      // leaving the browser's request unanswered (an import stuck at "Reading files").
      response.setHeader('connection', 'close');
      const recorded = this.answer(
        {
          method: request.method ?? '',
          url: new URL(request.url ?? '/', 'http://simulator'),
          headers: request.headers,
          relayed: request.headers['user-agent'] === 'Docket source relay',
        },
        response,
      );
      if (recorded !== undefined) this.requests.push(recorded);
    });
    await new Promise<void>((resolve) => this.server?.listen(port, '127.0.0.1', resolve));
    const address = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${address.port}`;
  }

  /** Hands the browser's (and its workers') requests to `origin` to this simulator at `base`,
   *  path and query kept. */
  async route(context: BrowserContext, origin: string, base: string): Promise<void> {
    await context.route(`${origin}/**`, async (route) => {
      const { pathname, search } = new URL(route.request().url());
      const response = await route.fetch({ url: `${base}${pathname}${search}` });
      await route.fulfill({ response });
    });
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (server === null) return;
    await new Promise<void>((resolve) => {
      server.close(() => {
        resolve();
      });
    });
  }
}

/** Ends `response` with `body` as JSON. */
export function sendJson(response: ServerResponse, body: unknown, status = 200): void {
  response.statusCode = status;
  response.setHeader('content-type', 'application/json');
  response.end(JSON.stringify(body));
}
