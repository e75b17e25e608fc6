import { randomBytes } from "node:crypto";
import { type Logger, pino } from "pino";
import { CaseActor } from "../../actors/CaseActor.js";
import type { SubCaseLocks } from "../../src/app/sub-cases/sub-case-locks.js";
import type { EventOf } from "../../src/domain/events/catalogue.js";
import { parseUrn } from "../../src/domain/urn.js";
import type { OperatorPrincipal } from "../../src/app/principals.js";
import type { TimerHandle } from "../../src/runtime/clock.js";
import type { Runtime } from "../../src/runtime/runtime.js";
import { CaseUpdateLog } from "./case-update-log.js";
import { caseUrnOf, channelEventsOf, updatesTheCase } from "./channel-events.js";
import { CLOSE_CODE, type EventMessage, LOCK_RELEASE_GRACE_MS, REPLAY_WINDOW_MS } from "./protocol.js";

/** One live, authenticated operator connection as the hub sees it. */
export interface ChannelMember {
  readonly principal: OperatorPrincipal;
  /** When the connection opened (the hub's clock): a logout ends only connections older than it. */
  readonly connectedAtMs: number;
  deliver(message: EventMessage): void;
  /** Closes the connection without releasing its operator's locks; resolves once it is closed. */
  end(code: number, reason: string): Promise<void>;
}

export interface SessionsClosed {
  connectionsClosed: number;
  locksReleased: number;
}

/**
 * This process's side of the operator channel: who is connected, which case rooms they watch,
 * the fan-out of domain events to those rooms, and the release of an operator's locks when the
 * operator's last connection here drops (after a short grace, so a reconnect does not flap) or
 * the operator logs out. One hub per platform (registered by the sub-cases module): the event
 * subscription, the WebSocket server and the logout route share it.
 */
export class RealtimeHub {
  readonly updates: CaseUpdateLog;
  private readonly rooms = new Map<string, Set<ChannelMember>>();
  private readonly byOperator = new Map<string, Set<ChannelMember>>();
  private readonly pendingReleases = new Map<string, TimerHandle>();
  private logger: Logger = pino({ enabled: false });
  /**
   * Events older than this are history from before this replica existed, beyond the replay
   * window: nobody connected here can have missed them. On Dapr a starting replica's consumer
   * group reads its stream from the start (components/pubsub-replicas.yaml), and this is what
   * keeps that backlog from reaching today's operators (an old logout ending a new session).
   */
  private readonly historyBeforeMs: number;

  constructor(
    private readonly runtime: Runtime,
    private readonly locks: SubCaseLocks,
  ) {
    this.updates = new CaseUpdateLog(runtime.documents, runtime.clock);
    this.historyBeforeMs = runtime.clock.now() - REPLAY_WINDOW_MS;
  }

  useLogger(logger: Logger): void {
    this.logger = logger;
  }

  /** The member's operator is (back) online: a release pending from its last disconnect is off. */
  connected(member: ChannelMember): void {
    const operator = member.principal.actorUrn;
    this.pendingReleases.get(operator)?.cancel();
    this.pendingReleases.delete(operator);
    const members = this.byOperator.get(operator) ?? new Set();
    members.add(member);
    this.byOperator.set(operator, members);
  }

  /**
   * The member's connection closed (it has left its rooms). When it was its operator's last one
   * here and it dropped (as opposed to being ended by a logout or a shutdown), the operator's locks
   * go after the grace.
   */
  disconnected(member: ChannelMember, options: { releaseLocks: boolean }): void {
    const { actorUrn: operator, tenant } = member.principal;
    const members = this.byOperator.get(operator);
    members?.delete(member);
    if (members && members.size > 0) return;
    this.byOperator.delete(operator);
    if (!options.releaseLocks || this.pendingReleases.has(operator)) return;
    const timer = this.runtime.clock.setTimer(() => {
      this.pendingReleases.delete(operator);
      this.releaseLocks(tenant, operator, "disconnect").catch((error) =>
        this.logger.error({ err: error, operator }, "releasing the locks of a disconnected operator failed"),
      );
    }, LOCK_RELEASE_GRACE_MS);
    this.pendingReleases.set(operator, timer);
  }

  join(caseUrn: string, member: ChannelMember): void {
    const members = this.rooms.get(caseUrn) ?? new Set();
    members.add(member);
    this.rooms.set(caseUrn, members);
  }

  leave(caseUrn: string, member: ChannelMember): void {
    const members = this.rooms.get(caseUrn);
    members?.delete(member);
    if (members?.size === 0) this.rooms.delete(caseUrn);
  }

  /** Live connections of an operator in this process. */
  connectionsOf(operatorUrn: string): number {
    return this.byOperator.get(operatorUrn)?.size ?? 0;
  }

  /**
   * A domain event from the tenant topic: `case:updated` events are logged for replay whether or
   * not anyone watches now; then every member in the case's room gets the channel events.
   */
  async fanOut(event: EventOf): Promise<void> {
    const occurredAtMs = Date.parse(event.occurredAt);
    if (occurredAtMs < this.historyBeforeMs) return;
    // A logout: every replica closes the operator's connections it holds that were open by then;
    // a connection opened since belongs to the operator's next login.
    if (event.type === "operator.logged-out") {
      await this.endConnectionsOf(event.data.operatorUrn, occurredAtMs);
      return;
    }
    // Most events (a sub-case opening with its case) reach no one: no messages are made for them.
    if (!updatesTheCase(event) && !this.rooms.has(caseUrnOf(event) ?? "")) return;
    const messages = await channelEventsOf(event, (caseUrn) => this.caseStatus(caseUrn));
    for (const message of messages) {
      if (message.event === "case:updated") await this.updates.append(message);
      for (const member of this.rooms.get(message.caseUrn) ?? []) member.deliver(message);
    }
  }

  /**
   * Logout step 1 (spec 5.1): the operator's connections here are closed and every lock the
   * operator holds in the tenant is released; resolves once both are done.
   */
  async closeOperatorSessions(
    operator: Pick<OperatorPrincipal, "actorUrn" | "tenant">,
  ): Promise<SessionsClosed> {
    this.pendingReleases.get(operator.actorUrn)?.cancel();
    this.pendingReleases.delete(operator.actorUrn);
    const connectionsClosed = await this.endConnectionsOf(operator.actorUrn);
    const released = await this.releaseLocks(operator.tenant, operator.actorUrn, "logout");
    return { connectionsClosed, locksReleased: released.length };
  }

  private async endConnectionsOf(operatorUrn: string, openedBy = Number.POSITIVE_INFINITY): Promise<number> {
    const members = [...(this.byOperator.get(operatorUrn) ?? [])].filter(
      (member) => member.connectedAtMs <= openedBy,
    );
    await Promise.all(members.map((member) => member.end(CLOSE_CODE.loggedOut, "logged out")));
    return members.length;
  }

  private releaseLocks(tenant: string, operatorUrn: string, reason: "disconnect" | "logout") {
    return this.locks.releaseAllHeldBy(
      tenant,
      operatorUrn,
      reason,
      `urn:trace:${randomBytes(16).toString("hex")}`,
    );
  }

  private async caseStatus(caseUrn: string): Promise<string | undefined> {
    const caseId = parseUrn(caseUrn, "case")?.id;
    return caseId ? (await this.runtime.actors.invoke(CaseActor, caseId, "outline"))?.status : undefined;
  }
}
