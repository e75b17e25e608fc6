import { DomainError } from "../../src/domain/domain-error.js";
import type { Logger } from "pino";
import { WebSocket } from "ws";
import { CaseActor } from "../../actors/CaseActor.js";
import { roleSatisfies } from "../../src/domain/roles.js";
import { parseUrn } from "../../src/domain/urn.js";
import type { OperatorPrincipal } from "../../src/app/principals.js";
import { assertAirport, assertTenant } from "../../src/app/authorization.js";
import { asProblemError } from "../../src/http/problem.js";
import type { ActorRuntime } from "../../src/runtime/actor-runtime.js";
import type { Clock, TimerHandle } from "../../src/runtime/clock.js";
import {
  AUTH_TIMEOUT_MS,
  CLOSE_CODE,
  type ClientMessage,
  type EventMessage,
  parseClientMessage,
  type ServerMessage,
} from "./protocol.js";
import type { ChannelMember, RealtimeHub } from "./realtime-hub.js";

/** Who may watch cases: the roles that read cases over HTTP (spec 4.1). */
const WATCHER_ROLES = ["AIRPORT_OPERATOR"] as const;

/** A logout waits this long for the client to acknowledge the close before cutting the socket. */
const CLOSE_HANDSHAKE_MS = 1_000;

export interface ConnectionDeps {
  hub: RealtimeHub;
  authenticate: (token: string) => Promise<OperatorPrincipal>;
  actors: ActorRuntime;
  clock: Clock;
  logger: Logger;
}

interface Room {
  /** Live events held back while the room's replay is being sent. */
  held?: EventMessage[];
}

/**
 * One operator's WebSocket: authenticate (the handshake's token or the first message, within
 * 5 s), then subscribe to case rooms and receive their events. Client messages are handled one
 * at a time in arrival order, so a subscribe sent right behind the auth message finds the
 * connection authenticated.
 */
export class OperatorConnection implements ChannelMember {
  private authenticated: OperatorPrincipal | undefined;
  private readonly rooms = new Map<string, Room>();
  private authTimer: TimerHandle | undefined;
  private expiryTimer: TimerHandle | undefined;
  private inbox: Promise<void> = Promise.resolve();
  private releaseLocksOnClose = true;
  private alive = true;
  private readonly closed: Promise<void>;
  readonly connectedAtMs: number;

  constructor(
    private readonly socket: WebSocket,
    private readonly deps: ConnectionDeps,
  ) {
    this.connectedAtMs = deps.clock.now();
    this.closed = new Promise((resolve) => socket.once("close", () => resolve()));
    socket.on("message", (data, isBinary) => {
      const raw = isBinary ? "" : data.toString();
      this.inbox = this.inbox.then(() => this.handle(raw)).catch((error) => this.fail(error));
    });
    socket.on("pong", () => {
      this.alive = true;
    });
    socket.once("close", () => this.onClose());
    socket.on("error", (error) => deps.logger.debug({ err: error }, "operator channel socket error"));
  }

  get principal(): OperatorPrincipal {
    if (!this.authenticated) throw new Error("The connection is not authenticated yet");
    return this.authenticated;
  }

  /**
   * Starts with the handshake's token when there was one, else waits for the auth message. Either
   * way a connection still unauthenticated after the timeout is closed.
   */
  start(handshakeToken: string | undefined): void {
    this.authTimer = this.deps.clock.setTimer(
      () => this.close(CLOSE_CODE.invalidToken, "not authenticated in time"),
      AUTH_TIMEOUT_MS,
    );
    if (handshakeToken) {
      this.inbox = this.inbox
        .then(() => this.authenticate(handshakeToken))
        .catch((error) => this.fail(error));
    }
  }

  deliver(message: EventMessage): void {
    const room = this.rooms.get(message.caseUrn);
    if (!room) return;
    if (room.held) room.held.push(message);
    else this.send(message);
  }

  async end(code: number, reason: string): Promise<void> {
    this.releaseLocksOnClose = false;
    if (this.socket.readyState === WebSocket.CLOSED) return;
    const cutOff = this.deps.clock.setTimer(() => this.socket.terminate(), CLOSE_HANDSHAKE_MS);
    this.socket.close(code, reason);
    await this.closed;
    cutOff.cancel();
  }

  /**
   * Called by the server's heartbeat. A connection that did not answer the last ping is cut: a
   * half-open TCP connection never closes by itself, and its operator's locks would never go.
   */
  heartbeat(): void {
    if (!this.alive) {
      this.socket.terminate();
      return;
    }
    this.alive = false;
    this.socket.ping();
  }

  private async handle(raw: string): Promise<void> {
    const message = parseClientMessage(raw);
    if ("invalid" in message) {
      if (!this.authenticated) return this.close(CLOSE_CODE.invalidToken, "authenticate first");
      return this.send({ type: "error", code: "invalid-message", message: message.invalid });
    }
    if (message.type === "auth") return this.authenticate(message.token);
    if (!this.authenticated) return this.close(CLOSE_CODE.invalidToken, "authenticate first");
    if (message.type === "subscribe") return this.subscribe(message);
    this.unsubscribe(message.caseUrn);
  }

  /** First authentication, or a fresh token for the same operator before the old one expires. */
  private async authenticate(token: string): Promise<void> {
    let principal: OperatorPrincipal;
    try {
      principal = await this.deps.authenticate(token);
      if (!roleSatisfies(principal.role, WATCHER_ROLES)) {
        throw new DomainError("forbidden", "role-not-allowed", `Role ${principal.role} may not watch cases`);
      }
    } catch (error) {
      const problem = asProblemError(error);
      if (problem.status === 401) return this.close(CLOSE_CODE.invalidToken, problem.code);
      if (problem.status === 403) return this.close(CLOSE_CODE.forbidden, problem.code);
      throw error;
    }
    if (this.authenticated && this.authenticated.actorUrn !== principal.actorUrn) {
      return this.close(CLOSE_CODE.invalidToken, "a connection belongs to one operator");
    }
    if (this.socket.readyState !== WebSocket.OPEN) return;
    this.authTimer?.cancel();
    this.expiryTimer?.cancel();
    this.expiryTimer = this.deps.clock.setTimer(
      () => this.close(CLOSE_CODE.invalidToken, "token expired"),
      principal.expiresAt - this.deps.clock.now(),
    );
    const first = !this.authenticated;
    this.authenticated = principal;
    if (first) this.deps.hub.connected(this);
    this.send({
      type: "ready",
      operatorUrn: principal.actorUrn,
      tokenExpiresAt: new Date(principal.expiresAt).toISOString(),
    });
  }

  /**
   * Joins the room at once, holding its live events back while the replay (if the client resumes)
   * is sent, so that nothing falls between the replay and the live stream.
   */
  private async subscribe(message: Extract<ClientMessage, { type: "subscribe" }>): Promise<void> {
    const { caseUrn } = message;
    const refusal = await this.refusalFor(caseUrn);
    if (refusal) return this.send({ type: "error", ...refusal, caseUrn });
    if (this.socket.readyState !== WebSocket.OPEN) return;
    const room: Room = { held: [] };
    this.rooms.set(caseUrn, room);
    this.deps.hub.join(caseUrn, this);
    const resumes = message.lastEventId !== undefined || message.since !== undefined;
    const replay = resumes
      ? await this.deps.hub.updates.replay(caseUrn, message)
      : { messages: [], complete: true };
    this.send({ type: "subscribed", caseUrn, replayed: replay.messages.length, complete: replay.complete });
    const sent = new Set<string>();
    for (const replayed of replay.messages) {
      sent.add(`${replayed.event} ${replayed.id}`);
      this.send(replayed);
    }
    const held = room.held ?? [];
    delete room.held;
    for (const live of held) if (!sent.has(`${live.event} ${live.id}`)) this.send(live);
  }

  private unsubscribe(caseUrn: string): void {
    this.rooms.delete(caseUrn);
    this.deps.hub.leave(caseUrn, this);
    this.send({ type: "unsubscribed", caseUrn });
  }

  /** Why this operator may not watch the case (spec 5.4: tenant, then airport), if it may not. */
  private async refusalFor(caseUrn: string): Promise<{ code: string; message: string } | undefined> {
    const caseId = parseUrn(caseUrn, "case")?.id;
    const outline = caseId ? await this.deps.actors.invoke(CaseActor, caseId, "outline") : undefined;
    if (!outline) return { code: "not-found", message: `No case ${caseUrn}` };
    try {
      assertTenant(this.principal, outline.tenant);
      assertAirport(this.principal, outline.airport);
      return undefined;
    } catch (error) {
      if (error instanceof DomainError && error.kind === "forbidden")
        return { code: error.code, message: error.message };
      throw error;
    }
  }

  private send(message: ServerMessage): void {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  private close(code: number, reason: string): void {
    if (this.socket.readyState === WebSocket.OPEN || this.socket.readyState === WebSocket.CONNECTING) {
      this.socket.close(code, reason);
    }
  }

  /** Anything unexpected while handling a message: the client hears of it, the connection stays. */
  private fail(error: unknown): void {
    this.deps.logger.error({ err: error }, "operator channel message failed");
    this.send({ type: "error", code: "internal", message: "The message could not be handled; try again" });
  }

  private onClose(): void {
    this.authTimer?.cancel();
    this.expiryTimer?.cancel();
    for (const caseUrn of this.rooms.keys()) this.deps.hub.leave(caseUrn, this);
    this.rooms.clear();
    if (this.authenticated) this.deps.hub.disconnected(this, { releaseLocks: this.releaseLocksOnClose });
  }
}
