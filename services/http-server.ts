import { type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type Koa from "koa";
import { answerClientError } from "../src/http/client-errors.js";
import { DEFAULT_ERRORS_URL } from "../src/http/problem.js";

export interface RunningServer {
  url: string;
  /** The Node server, for protocols that upgrade connections (WebSocket). */
  server: Server;
  port: number;
  /**
   * Stops accepting connections, lets requests in flight finish, then drops idle keep-alives; what
   * is still busy after the grace is cut.
   */
  close(): Promise<void>;
}

/** How long a closing server waits for the requests and streams still open before cutting them. */
export const CLOSE_GRACE_MS = 10_000;

export async function listen(
  app: Koa,
  host: string,
  port: number,
  options: { errorsUrl?: string; closeGraceMs?: number } = {},
): Promise<RunningServer> {
  const server: Server = createServer(app.callback());
  server.on("clientError", answerClientError(options.errorsUrl ?? DEFAULT_ERRORS_URL));
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const actualPort = (server.address() as AddressInfo).port;
  return {
    url: `http://${host === "0.0.0.0" ? "localhost" : host}:${actualPort}`,
    port: actualPort,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        // A request in flight now leaves its keep-alive connection idle once answered, and Node
        // would then hold it (and the close) for the keep-alive timeout: sweep until all are gone.
        const sweep = setInterval(() => server.closeIdleConnections(), 25);
        // A connection still busy after the grace (a stream no module ended, a request waiting on
        // something that stopped) is cut: a shutdown ends, so the process can restart or exit.
        const cut = setTimeout(() => server.closeAllConnections(), options.closeGraceMs ?? CLOSE_GRACE_MS);
        server.close(() => {
          clearInterval(sweep);
          clearTimeout(cut);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
