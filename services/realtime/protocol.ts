/**
 * The operator real-time channel's wire protocol (spec 4.1 "WebSocket channel", 6.2): JSON text
 * frames both ways, described for clients in `services/realtime/README.md`.
 */

export const REALTIME_PATH = "/ws/cases";

/** WebSocket close codes (4000-4999 are the application's own). */
export const CLOSE_CODE = {
  /** The token is missing, invalid, expired or revoked, or none came in time (spec 7). */
  invalidToken: 4401,
  /** The token is valid but its role may not watch cases. */
  forbidden: 4403,
  /** The operator logged out (spec 5.1 step 1). */
  loggedOut: 4001,
  /** The server is shutting down; reconnect (another replica will answer). */
  goingAway: 1001,
} as const;

/** The first message must authenticate within this time (unless the handshake carried the token). */
export const AUTH_TIMEOUT_MS = 5_000;

/**
 * A lock holder's connection may drop and come back (a network blip, a page reload) without its
 * locks flapping: its locks are released this long after its last connection closed, unless it is
 * back by then. Spec 8.2 wants the release within 50-200 ms.
 */
export const LOCK_RELEASE_GRACE_MS = 50;

/** How far back missed `case:updated` events are replayed on reconnect (spec 6.2, 8.2). */
export const REPLAY_WINDOW_MS = 60_000;

/** Interval of the server's pings; a connection that missed one pong is dropped as dead. */
export const HEARTBEAT_INTERVAL_MS = 30_000;

/** The subprotocol a browser names first when it passes the token in `Sec-WebSocket-Protocol`. */
export const BEARER_SUBPROTOCOL = "bearer";

/** Largest client frame accepted; client messages are small commands. */
export const MAX_CLIENT_MESSAGE_BYTES = 16 * 1024;

export const CHANNEL_EVENTS = [
  "case:updated",
  "subcase:state-changed",
  "graph:step:started",
  "graph:step:completed",
  "graph:step:progress",
  "notification:dispatched",
] as const;
export type ChannelEventName = (typeof CHANNEL_EVENTS)[number];

// ---- client to server ----------------------------------------------------------------------------

export type ClientMessage =
  | { type: "auth"; token: string }
  | {
      type: "subscribe";
      caseUrn: string;
      /** Resume after this event (the `id` of the last event seen in this room). */
      lastEventId?: string;
      /** Resume from this time (ISO 8601, e.g. the `at` of the last event seen). */
      since?: string;
    }
  | { type: "unsubscribe"; caseUrn: string };

// ---- server to client ----------------------------------------------------------------------------

export interface EventMessage {
  type: "event";
  event: ChannelEventName;
  /** The domain event's URN; one domain event may yield several channel events, each named once. */
  id: string;
  /** When the domain event happened (ISO 8601). */
  at: string;
  caseUrn: string;
  data: Record<string, unknown>;
  /** Present on events sent again after a reconnect. */
  replayed?: true;
}

export type ServerMessage =
  | { type: "ready"; operatorUrn: string; tokenExpiresAt: string }
  | { type: "subscribed"; caseUrn: string; replayed: number; complete: boolean }
  | { type: "unsubscribed"; caseUrn: string }
  | EventMessage
  | { type: "error"; code: string; message: string; caseUrn?: string };

/** A client frame as a command, or the reason it is not one. */
export function parseClientMessage(raw: string): ClientMessage | { invalid: string } {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { invalid: "The message is not JSON" };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { invalid: "The message is not a JSON object" };
  }
  const message = value as Record<string, unknown>;
  switch (message.type) {
    case "auth":
      return nonEmpty(message.token)
        ? { type: "auth", token: message.token }
        : { invalid: "auth needs a token" };
    case "subscribe": {
      if (!isUrn(message.caseUrn)) return { invalid: "subscribe needs a caseUrn" };
      if (message.lastEventId !== undefined && !nonEmpty(message.lastEventId)) {
        return { invalid: "lastEventId must be a non-empty string" };
      }
      if (
        message.since !== undefined &&
        !(nonEmpty(message.since) && !Number.isNaN(Date.parse(message.since)))
      ) {
        return { invalid: "since must be an ISO 8601 timestamp" };
      }
      return {
        type: "subscribe",
        caseUrn: message.caseUrn,
        ...(message.lastEventId !== undefined ? { lastEventId: message.lastEventId as string } : {}),
        ...(message.since !== undefined ? { since: message.since as string } : {}),
      };
    }
    case "unsubscribe":
      return isUrn(message.caseUrn)
        ? { type: "unsubscribe", caseUrn: message.caseUrn }
        : { invalid: "unsubscribe needs a caseUrn" };
    default:
      return { invalid: "type must be auth, subscribe or unsubscribe" };
  }
}

/**
 * The token a client put in the handshake's `Sec-WebSocket-Protocol: bearer, <token>` (browsers
 * cannot set other headers on a WebSocket), or undefined.
 */
export function handshakeToken(protocolHeader: string | undefined): string | undefined {
  const offered = (protocolHeader ?? "").split(",").map((p) => p.trim());
  return offered[0] === BEARER_SUBPROTOCOL && nonEmpty(offered[1]) ? offered[1] : undefined;
}

function nonEmpty(value: unknown): value is string {
  return typeof value === "string" && value !== "";
}

function isUrn(value: unknown): value is string {
  return typeof value === "string" && /^urn:[^:]+:[^:]/.test(value) && value.length <= 512;
}
