import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import type { Logger } from "pino";
import { WebSocketServer } from "ws";
import type { OperatorPrincipal } from "../../src/app/principals.js";
import type { Clock, TimerHandle } from "../../src/runtime/clock.js";
import type { Runtime } from "../../src/runtime/runtime.js";
import { OperatorConnection } from "./operator-connection.js";
import {
  BEARER_SUBPROTOCOL,
  CLOSE_CODE,
  HEARTBEAT_INTERVAL_MS,
  handshakeToken,
  MAX_CLIENT_MESSAGE_BYTES,
  REALTIME_PATH,
} from "./protocol.js";
import type { RealtimeHub } from "./realtime-hub.js";

export interface RealtimeDeps {
  /** Verifies an operator access token as the HTTP routes do (see `operatorTokenAuthentication`). */
  authenticate: (token: string) => Promise<OperatorPrincipal>;
  runtime: Runtime;
  /** The platform's hub, which the tenant-topic subscription of the sub-cases module feeds. */
  hub: RealtimeHub;
  /** The clock of the auth timeout, token expiry and heartbeat; the runtime's unless told. */
  clock?: Clock;
  logger: Logger;
}

export interface RealtimeChannel {
  /**
   * Closes every connection (1001: reconnect elsewhere) without releasing their locks, which
   * survive a restart or a rolling deploy, and stops answering upgrades. Call it before closing
   * the HTTP server, whose close would otherwise wait for the sockets.
   */
  close(): Promise<void>;
}

/**
 * Serves the operator real-time channel (spec 4.1, 6.2) on `server` at `/ws/cases`; other
 * upgrade paths get 404. Events reach the connections through the runtime's hub, which the
 * tenant-topic subscription of the sub-cases module feeds.
 */
export function attachRealtime(server: Server, deps: RealtimeDeps): RealtimeChannel {
  const clock = deps.clock ?? deps.runtime.clock;
  const { hub } = deps;
  hub.useLogger(deps.logger);
  const connections = new Set<OperatorConnection>();
  const sockets = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_CLIENT_MESSAGE_BYTES,
    // A browser passing its token as `bearer, <token>` must get one of its offers back: `bearer`.
    handleProtocols: (offered) => (offered.has(BEARER_SUBPROTOCOL) ? BEARER_SUBPROTOCOL : false),
  });

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    if (path !== REALTIME_PATH) {
      socket.end("HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => {
      const connection = new OperatorConnection(ws, {
        hub,
        authenticate: deps.authenticate,
        actors: deps.runtime.actors,
        clock,
        logger: deps.logger,
      });
      connections.add(connection);
      ws.once("close", () => connections.delete(connection));
      connection.start(handshakeToken(request.headers["sec-websocket-protocol"]));
    });
  };
  server.on("upgrade", onUpgrade);

  let heartbeat: TimerHandle | undefined;
  const beat = () => {
    for (const connection of connections) connection.heartbeat();
    hub.updates
      .prune()
      .catch((error) => deps.logger.warn({ err: error }, "pruning the case update log failed"));
    heartbeat = clock.setTimer(beat, HEARTBEAT_INTERVAL_MS);
  };
  heartbeat = clock.setTimer(beat, HEARTBEAT_INTERVAL_MS);

  return {
    close: async () => {
      heartbeat?.cancel();
      server.off("upgrade", onUpgrade);
      await Promise.all([...connections].map((c) => c.end(CLOSE_CODE.goingAway, "server shutting down")));
      await new Promise<void>((resolve) => sockets.close(() => resolve()));
    },
  };
}
