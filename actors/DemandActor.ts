import { demandAddress, demandUrn } from "../src/domain/demand-addresses.js";
import {
  approve,
  createDemand,
  type Demand,
  type DemandState,
  type DemandType,
  markFulfilled,
  markPartial,
  reject,
} from "../src/domain/demand.js";
import type { AirportFreeze } from "../src/domain/airport-freeze.js";
import { DomainError } from "../src/domain/domain-error.js";
import type { DemandApprovedData } from "../src/domain/events/demand.js";
import type { Policy } from "../src/domain/policy/policy.js";
import type { ActorContext } from "../src/runtime/actor-runtime.js";

/** The approval rules of the policy that resolved for the case when the demand was created. */
export type DemandPolicy = Pick<
  Policy,
  "urn" | "version" | "autoApproveDemand" | "maxAutomaticRoomsPerWave" | "incrementalRequiresApproval"
>;

export interface RequestDemandCommand {
  tenant: string;
  caseUrn: string;
  /** The case's airport (flight origin), kept for airport-scoped queues. */
  airport: string;
  type: DemandType;
  roomsRequested: number;
  requestedBy: string;
  policy?: DemandPolicy;
  /** The case's airport is frozen: the demand is rejected as it is requested (spec 3.1). */
  freeze?: Pick<AirportFreeze, "airport" | "reason">;
  correlationUrn: string;
}

export interface DecideDemandCommand {
  urn: string;
  by: string;
  reason: string;
  correlationUrn: string;
}

/** Allocation and booking finished for an APPROVED demand (spec 3.1, the last two rows). */
export interface BookingOutcomeCommand {
  urn: string;
  by: string;
  /** Rooms with a confirmed reservation; fewer than requested makes the demand PARTIAL. */
  roomsBooked: number;
  /** The manual-review item explaining a PARTIAL outcome; required then. */
  reviewItemUrn?: string;
  correlationUrn: string;
}

/** Every demand of the case after a turn, for the query index (see `writeRevisioned`). */
export interface DemandLedger {
  tenant: string;
  caseUrn: string;
  airport: string;
  /** Bumped by every turn that changes something. */
  revision: number;
  demands: Demand[];
}

export interface DemandTurn {
  /** Absent for a new demand. */
  before?: Demand;
  after: Demand;
  ledger: DemandLedger;
}

const LEDGER = "ledger";

/**
 * The room demand of one case (spec 2.3, 3.1), keyed by case id. One turn at a time keeps a case's
 * demand consistent when operators create and supervisors decide at once: two INITIAL requests
 * cannot both land, and a demand is approved or rejected once.
 *
 * Every move into APPROVED, automatic or by a supervisor, emits `demand.approved`, which starts
 * allocation; the other states emit `demand.requested`, `demand.rejected`, `demand.fulfilled` and
 * `demand.partial`. Demand only ever adds rooms: nothing here touches reservations.
 */
export class DemandActor {
  constructor(private readonly context: ActorContext) {}

  async request(command: RequestDemandCommand): Promise<DemandTurn> {
    const ledger = (await this.ledger()) ?? {
      tenant: command.tenant,
      caseUrn: command.caseUrn,
      airport: command.airport,
      revision: 0,
      demands: [],
    };
    if (ledger.tenant !== command.tenant || ledger.caseUrn !== command.caseUrn) {
      throw new DomainError(
        "conflict",
        "demand-case-collision",
        "This demand ledger belongs to another case",
      );
    }
    assertFitsBaseline(ledger.demands, command.type);
    const demand = createDemand(
      {
        urn: demandUrn(this.context.actorId, ledger.demands.length + 1),
        caseUrn: command.caseUrn,
        type: command.type,
        roomsRequested: command.roomsRequested,
        requestedBy: command.requestedBy,
      },
      command.policy,
      this.now(),
      command.freeze,
    );
    this.announce(ledger, demand, command.correlationUrn);
    return { after: demand, ledger: this.commit(ledger, demand) };
  }

  /** A supervisor approves a REQUESTED demand; the decision records the policy version. */
  async approve(command: DecideDemandCommand): Promise<DemandTurn> {
    return this.decide(command, approve);
  }

  async reject(command: DecideDemandCommand): Promise<DemandTurn> {
    return this.decide(command, reject);
  }

  /**
   * Every requested room has a confirmed reservation (FULFILLED), or some do and a review item
   * explains the rest (PARTIAL).
   */
  async recordBookingOutcome(command: BookingOutcomeCommand): Promise<DemandTurn> {
    const { ledger, before } = await this.find(command.urn);
    const now = this.now();
    const after =
      command.roomsBooked >= before.roomsRequested
        ? markFulfilled(before, command.by, now)
        : markPartial(
            before,
            { by: command.by, roomsBooked: command.roomsBooked, reviewItemUrn: requiredReviewItem(command) },
            now,
          );
    this.announce(ledger, after, command.correlationUrn);
    return { before, after, ledger: this.commit(ledger, after) };
  }

  async get(): Promise<DemandLedger | undefined> {
    return this.ledger();
  }

  private async decide(command: DecideDemandCommand, decision: typeof approve): Promise<DemandTurn> {
    const { ledger, before } = await this.find(command.urn);
    const after = decision(before, { by: command.by, reason: command.reason }, this.now());
    this.announce(ledger, after, command.correlationUrn);
    return { before, after, ledger: this.commit(ledger, after) };
  }

  private async find(urn: string): Promise<{ ledger: DemandLedger; before: Demand }> {
    const ledger = await this.ledger();
    const before = ledger?.demands[(demandAddress(urn)?.number ?? 0) - 1];
    if (!ledger || !before || before.urn !== urn) {
      throw new DomainError("not-found", "demand", `No demand ${urn}`);
    }
    return { ledger, before };
  }

  private announce(ledger: DemandLedger, demand: Demand, correlationUrn: string): void {
    const event = { tenant: ledger.tenant, caseUrn: ledger.caseUrn, correlationUrn };
    if (demand.state === "APPROVED") {
      const data: DemandApprovedData = {
        demandUrn: demand.urn,
        caseUrn: demand.caseUrn,
        type: demand.type,
        roomsRequested: demand.roomsRequested,
        policyUrn: demand.policyUrn ?? null,
        policyVersion: demand.decisions.at(-1)?.policyVersion ?? demand.policyVersion ?? null,
      };
      this.context.emit({ ...event, type: "demand.approved", data });
    } else {
      this.context.emit({
        ...event,
        type: `demand.${demand.state.toLowerCase() as Lowercase<Exclude<DemandState, "APPROVED">>}`,
        data: {
          demandUrn: demand.urn,
          caseUrn: demand.caseUrn,
          roomsRequested: demand.roomsRequested,
          ...(demand.reviewItemUrn ? { reviewItemUrn: demand.reviewItemUrn } : {}),
        },
      });
    }
  }

  private commit(ledger: DemandLedger, demand: Demand): DemandLedger {
    const demands = ledger.demands.some((d) => d.urn === demand.urn)
      ? ledger.demands.map((d) => (d.urn === demand.urn ? demand : d))
      : [...ledger.demands, demand];
    const next = { ...ledger, revision: ledger.revision + 1, demands };
    this.context.state.set(LEDGER, next);
    return next;
  }

  private ledger(): Promise<DemandLedger | undefined> {
    return this.context.state.get<DemandLedger>(LEDGER);
  }

  private now(): Date {
    return new Date(this.context.clock.now());
  }
}

function requiredReviewItem(command: BookingOutcomeCommand): string {
  if (!command.reviewItemUrn) {
    throw new DomainError(
      "invalid",
      "review-item-required",
      "A PARTIAL outcome needs the review item that explains it",
    );
  }
  return command.reviewItemUrn;
}

const APPROVED_STATES = new Set(["APPROVED", "FULFILLED", "PARTIAL"]);

/**
 * A case has one INITIAL demand (another may follow only a rejected one), and INCREMENTAL demand
 * adds rooms on top of an approved baseline (spec 3.1), so it needs an approved INITIAL first.
 */
function assertFitsBaseline(demands: readonly Demand[], type: DemandType): void {
  const initial = demands.filter((d) => d.type === "INITIAL" && d.state !== "REJECTED");
  if (type === "INITIAL" && initial.length > 0) {
    throw new DomainError("conflict", "initial-demand-exists", "The case already has INITIAL demand", {
      demandUrn: initial[0]!.urn,
      state: initial[0]!.state,
    });
  }
  if (type === "INCREMENTAL" && !initial.some((d) => APPROVED_STATES.has(d.state))) {
    throw new DomainError(
      "conflict",
      "no-approved-baseline",
      "INCREMENTAL demand adds rooms to an approved INITIAL demand; the case has none yet",
    );
  }
}
