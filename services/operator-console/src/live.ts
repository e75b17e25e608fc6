/**
 * The operator real-time channel (spec 4.1, 6.2; protocol in services/realtime/README.md): one
 * WebSocket per signed-in console window, authenticated by the first message, rooms per case,
 * reconnection with replay of missed `case:updated` events (`lastEventId`), and a fresh token sent
 * on the open connection after each refresh. While it is open the server knows the operator is
 * here: when it drops, the operator's sub-case locks are released (spec 6.2).
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { endRefusedSession, refreshAccessToken } from "./identity.js";
import { accessToken, clearSession, onSessionChange } from "./session.js";

export const LIVE_PATH = "/ws/cases";

/** What a room's listeners get: a channel event, or `resync` when events may have been missed. */
export interface LiveEvent {
  event:
    | "case:updated"
    | "subcase:state-changed"
    | "graph:step:started"
    | "graph:step:completed"
    | "graph:step:progress"
    | "notification:dispatched"
    /** Reload the case over HTTP: the connection was away longer than the replay window. */
    | "resync";
  /** The domain event's URN (empty for `resync`). */
  id: string;
  at: string;
  caseUrn: string;
  data: Record<string, unknown>;
  replayed?: boolean;
}

export type LiveStatus = "offline" | "connecting" | "live";

const CLOSE_INVALID_TOKEN = 4401;
const CLOSE_FORBIDDEN = 4403;
const CLOSE_LOGGED_OUT = 4001;
const RECONNECT_DELAYS_MS = [250, 500, 1_000, 2_000, 5_000, 10_000];
const REMEMBERED_EVENTS = 1_000;

type Listener = (event: LiveEvent) => void;

interface Room {
  listeners: Set<Listener>;
  lastEventId?: string;
  subscribedOnce: boolean;
  /** Subscribed again after a reconnect: what the server cannot replay must be read over HTTP. */
  resubscribing?: boolean;
}

class LiveConnection {
  private socket: WebSocket | undefined;
  private running = false;
  private attempt = 0;
  private retry: ReturnType<typeof setTimeout> | undefined;
  private sentToken: string | undefined;
  private readonly rooms = new Map<string, Room>();
  private readonly seen: string[] = [];
  private readonly seenSet = new Set<string>();
  private readonly statusListeners = new Set<(status: LiveStatus) => void>();
  status: LiveStatus = "offline";

  start(): void {
    if (this.running) return;
    this.running = true;
    if (!this.socket) this.connect();
  }

  /**
   * The operator is logging out here: the server is about to close the connection (4001), which is
   * then no news to show. `resume` undoes it when the logout failed.
   */
  leaving(): { resume(): void } {
    this.running = false;
    clearTimeout(this.retry);
    return { resume: () => this.start() };
  }

  /** Closes the connection for good (logout step 1 on this side; the server releases the locks). */
  stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.retry);
    const socket = this.socket;
    this.socket = undefined;
    this.setStatus("offline");
    if (!socket || socket.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      socket.addEventListener("close", () => resolve(), { once: true });
      socket.close(1000, "logout");
    });
  }

  subscribe(caseUrn: string, listener: Listener): () => void {
    let room = this.rooms.get(caseUrn);
    if (!room) {
      room = { listeners: new Set(), subscribedOnce: false };
      this.rooms.set(caseUrn, room);
      this.sendSubscribe(caseUrn, room);
    }
    room.listeners.add(listener);
    return () => {
      const current = this.rooms.get(caseUrn);
      if (!current) return;
      current.listeners.delete(listener);
      if (current.listeners.size === 0) {
        this.rooms.delete(caseUrn);
        this.send({ type: "unsubscribe", caseUrn });
      }
    };
  }

  onStatus(listener: (status: LiveStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /** After a token refresh: the open connection gets the new token before the old one expires. */
  renewToken(): void {
    const token = accessToken();
    if (this.status === "live" && token && token !== this.sentToken) {
      this.sentToken = token;
      this.send({ type: "auth", token });
    }
  }

  private connect(): void {
    const token = accessToken();
    if (!this.running || !token) return;
    this.setStatus("connecting");
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}${LIVE_PATH}`);
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.sentToken = accessToken();
      socket.send(JSON.stringify({ type: "auth", token: this.sentToken }));
    });
    socket.addEventListener("message", (message) => this.receive(message.data));
    socket.addEventListener("close", (close) => {
      if (this.socket !== socket) return;
      this.socket = undefined;
      this.setStatus("offline");
      void this.closed(close.code);
    });
  }

  private async closed(code: number): Promise<void> {
    if (!this.running) return;
    if (code === CLOSE_LOGGED_OUT) {
      this.running = false;
      clearSession("You were logged out (in another window or by an administrator).");
      return;
    }
    if (code === CLOSE_FORBIDDEN) {
      this.running = false;
      return;
    }
    if (code === CLOSE_INVALID_TOKEN) {
      const outcome = await refreshAccessToken().catch(() => "failed");
      if (outcome === "refused") {
        this.running = false;
        endRefusedSession();
        return;
      }
    }
    const delay = RECONNECT_DELAYS_MS[Math.min(this.attempt, RECONNECT_DELAYS_MS.length - 1)]!;
    this.attempt++;
    this.retry = setTimeout(() => this.connect(), delay);
  }

  private receive(data: unknown): void {
    if (typeof data !== "string") return;
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(data) as Record<string, unknown>;
    } catch {
      return;
    }
    if (message.type === "ready") {
      if (this.status !== "live") {
        this.attempt = 0;
        this.setStatus("live");
        for (const [caseUrn, room] of this.rooms) this.sendSubscribe(caseUrn, room);
      }
      return;
    }
    const caseUrn = typeof message.caseUrn === "string" ? message.caseUrn : "";
    const room = this.rooms.get(caseUrn);
    if (!room) return;
    if (message.type === "subscribed") {
      const missed = room.resubscribing && (message.complete === false || !room.lastEventId);
      room.resubscribing = false;
      if (missed)
        this.deliver(room, { event: "resync", id: "", at: new Date().toISOString(), caseUrn, data: {} });
    } else if (message.type === "event") {
      const event = message as unknown as LiveEvent;
      const key = `${event.event}|${event.id}`;
      if (this.seenSet.has(key)) return;
      this.remember(key);
      if (event.event === "case:updated") room.lastEventId = event.id;
      this.deliver(room, event);
    }
  }

  private deliver(room: Room, event: LiveEvent): void {
    for (const listener of [...room.listeners]) listener(event);
  }

  private remember(key: string): void {
    this.seen.push(key);
    this.seenSet.add(key);
    if (this.seen.length > REMEMBERED_EVENTS) this.seenSet.delete(this.seen.shift()!);
  }

  private sendSubscribe(caseUrn: string, room: Room): void {
    if (this.status !== "live") return;
    // The first subscription needs no replay: the page has just read the case over HTTP.
    room.resubscribing = room.subscribedOnce;
    this.send({
      type: "subscribe",
      caseUrn,
      ...(room.subscribedOnce && room.lastEventId ? { lastEventId: room.lastEventId } : {}),
    });
    room.subscribedOnce = true;
  }

  private send(message: Record<string, unknown>): void {
    if (this.socket?.readyState !== WebSocket.OPEN) return;
    if (this.status === "live" || message.type === "auth") this.socket.send(JSON.stringify(message));
  }

  private setStatus(status: LiveStatus): void {
    if (this.status === status) return;
    this.status = status;
    for (const listener of [...this.statusListeners]) listener(status);
  }
}

/** The console window's one connection. */
export const live = new LiveConnection();

// Connect once signed in, renew the token on refresh, disconnect when the session ends.
onSessionChange(() => {
  if (accessToken()) {
    live.start();
    live.renewToken();
  } else {
    void live.stop();
  }
});

/**
 * Calls `onEvent` for every event of the case's room while the component is mounted (and `resync`
 * when events may have been missed). `onEvent` may change between renders.
 */
export function useLive(caseUrn: string | undefined, onEvent: (event: LiveEvent) => void): void {
  const handler = useRef(onEvent);
  handler.current = onEvent;
  useEffect(() => {
    if (!caseUrn) return;
    return live.subscribe(caseUrn, (event) => handler.current(event));
  }, [caseUrn]);
}

/** The connection's state, for the header's indicator. */
export function useLiveStatus(): LiveStatus {
  const [status, setStatus] = useState(live.status);
  useEffect(() => {
    setStatus(live.status);
    return live.onStatus(setStatus);
  }, []);
  return status;
}
