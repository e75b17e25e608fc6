import { inject, injectable } from "tsyringe";
import { DemandActor } from "../../../actors/DemandActor.js";
import { AIRPORT_FREEZE_ACTOR, type AirportFreeze, freezeRejection } from "../../domain/airport-freeze.js";
import { demandAddress } from "../../domain/demand-addresses.js";
import type { Demand } from "../../domain/demand.js";
import type { ActorRuntime } from "../../runtime/actor-runtime.js";
import type { Clock } from "../../runtime/clock.js";
import type { Doc, DocumentStore } from "../../runtime/document-store.js";
import { TOKENS } from "../../runtime/tokens.js";
import type { AuditLog } from "../audit-log.js";
import type { OperatorPrincipal } from "../principals.js";
import { DemandIndex } from "./demand-index.js";

type FreezeDocument = AirportFreeze & Doc;

export const AIRPORT_FREEZES_COLLECTION = "airport_freezes";

export interface FreezeRequest {
  principal: OperatorPrincipal;
  correlationUrn: string;
}

/**
 * Airport freezes of each airline (src/domain/airport-freeze.ts), set and lifted by an ADMIN.
 * Setting one rejects, in the system's name, the airport's demand still waiting for a supervisor
 * (spec 3.1 REQUESTED -> REJECTED by system policy, logged: each rejection is a turn of the case's
 * DemandActor and an audit entry by `urn:system:airport-freeze`).
 */
@injectable()
export class AirportFreezes {
  constructor(
    @inject(TOKENS.documents) private readonly store: DocumentStore,
    @inject(TOKENS.clock) private readonly clock: Clock,
    @inject(TOKENS.actors) private readonly actors: ActorRuntime,
    @inject(DemandIndex) private readonly demands: DemandIndex,
    @inject(TOKENS.audit) private readonly audit: AuditLog,
  ) {}

  private get freezes() {
    return this.store.collection<FreezeDocument>(AIRPORT_FREEZES_COLLECTION);
  }

  /** The freeze in force at the airport, if any. */
  async of(tenant: string, airport: string): Promise<AirportFreeze | undefined> {
    const found = await this.freezes.get(freezeId(tenant, airport));
    return found && toFreeze(found);
  }

  async list(tenant: string): Promise<AirportFreeze[]> {
    return (await this.freezes.findAll({ tenant }, { sort: { airport: 1 } })).map(toFreeze);
  }

  /**
   * Freezes the airport (again, if frozen: the latest reason wins) and rejects its REQUESTED
   * demand; returns the freeze and the demand it rejected.
   */
  async freeze(
    request: FreezeRequest,
    airport: string,
    reason: string,
  ): Promise<{ freeze: AirportFreeze; rejected: Demand[] }> {
    const { tenant, actorUrn } = request.principal;
    const freeze: AirportFreeze = {
      tenant,
      airport,
      reason,
      frozenBy: actorUrn,
      frozenAt: new Date(this.clock.now()).toISOString(),
    };
    const before = await this.of(tenant, airport);
    await this.freezes.put({ _id: freezeId(tenant, airport), ...freeze });
    await this.audit.append({
      tenant,
      actorUrn,
      action: "airport.freeze",
      entityUrn: airportUrn(airport),
      caseUrn: null,
      correlationUrn: request.correlationUrn,
      payload: { airport, reason },
      reason,
      before: before ?? null,
      after: freeze,
    });
    return { freeze, rejected: await this.rejectWaitingDemand(freeze, request.correlationUrn) };
  }

  /** Lifts the freeze; false when the airport was not frozen. */
  async lift(request: FreezeRequest, airport: string, reason: string): Promise<boolean> {
    const { tenant, actorUrn } = request.principal;
    const before = await this.of(tenant, airport);
    if (!before) return false;
    await this.freezes.deleteOne({ _id: freezeId(tenant, airport) });
    await this.audit.append({
      tenant,
      actorUrn,
      action: "airport.unfreeze",
      entityUrn: airportUrn(airport),
      caseUrn: null,
      correlationUrn: request.correlationUrn,
      payload: { airport, reason },
      reason,
      before,
      after: null,
    });
    return true;
  }

  private async rejectWaitingDemand(freeze: AirportFreeze, correlationUrn: string): Promise<Demand[]> {
    const waiting: Demand[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.demands.pendingPage(freeze.tenant, freeze.airport, {
        limit: 100,
        ...(cursor ? { cursor } : {}),
      });
      waiting.push(...page.items);
      cursor = page.hasMore ? (page.nextCursor ?? undefined) : undefined;
    } while (cursor);
    const rejected: Demand[] = [];
    const decision = freezeRejection(freeze);
    for (const demand of waiting) {
      const address = demandAddress(demand.urn);
      if (!address) continue;
      const turn = await this.actors
        .invoke(DemandActor, address.caseId, "reject", { urn: demand.urn, ...decision, correlationUrn })
        // Decided meanwhile by a supervisor: nothing left for the freeze to reject.
        .catch((error: unknown) => {
          if ((error as { code?: string }).code === "demand-state") return undefined;
          throw error;
        });
      if (!turn) continue;
      await this.demands.record(turn.ledger);
      await this.audit.append({
        tenant: freeze.tenant,
        actorUrn: AIRPORT_FREEZE_ACTOR,
        action: "demand.reject",
        entityUrn: turn.after.urn,
        caseUrn: turn.after.caseUrn,
        correlationUrn,
        payload: { reason: decision.reason },
        reason: decision.reason,
        before: turn.before ?? null,
        after: turn.after,
      });
      rejected.push(turn.after);
    }
    return rejected;
  }
}

function freezeId(tenant: string, airport: string): string {
  return `${tenant}|${airport}`;
}

function airportUrn(airport: string): string {
  return `urn:airport:${airport}`;
}

function toFreeze({ _id, ...freeze }: FreezeDocument): AirportFreeze {
  return freeze;
}
