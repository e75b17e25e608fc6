import { ProblemError } from "../../src/http/errors.js";
import { defineRoute } from "../../src/http/route.js";
import { REALTIME_PATH } from "./protocol.js";

/**
 * `GET /ws/cases`, the operator real-time channel, in the operator API's route table and OpenAPI
 * document. The WebSocket upgrade itself is answered before Koa (attachRealtime); what reaches this
 * route is a plain HTTP request for the channel, which is told to upgrade.
 */
export function channelRoute() {
  return defineRoute({
    method: "GET",
    path: REALTIME_PATH,
    operationId: "openCaseChannel",
    summary: "Operator real-time channel (WebSocket)",
    description:
      "Open with an RFC 6455 upgrade (`Connection: Upgrade`, `Upgrade: websocket`). Authenticate with the " +
      'operator access token in the first frame, `{"type": "auth", "token": "<token>"}`, within 5 s, or ' +
      "in the handshake by offering the subprotocols `bearer` and the token; an invalid token closes the " +
      "connection with code 4401. Then `subscribe` to case rooms (tenant and airport checked) to receive " +
      "`case:updated`, `subcase:state-changed`, `graph:step:started|completed|progress` and " +
      "`notification:dispatched`; missed `case:updated` events of the last 60 s are replayed on reconnect. " +
      "The frames are described in services/realtime/README.md.",
    tags: ["Real-time"],
    surface: "operator",
    access: { kind: "public" },
    responses: {
      101: { description: "Switching Protocols: the WebSocket channel is open" },
      426: { description: "The request did not ask to upgrade to a WebSocket" },
    },
    handler: () => {
      throw new ProblemError({
        status: 426,
        category: "invalid",
        code: "upgrade-required",
        detail: `${REALTIME_PATH} is a WebSocket channel: open it with an Upgrade: websocket request`,
        headers: { Upgrade: "websocket", Connection: "Upgrade" },
      });
    },
  });
}
