import { inject, injectable } from "tsyringe";
import { CaseActor, type OpenCaseResult } from "../../../actors/CaseActor.js";
import { caseIdFor, caseUrnFor, type PassengerGroup } from "../../domain/case.js";
import { randomUuid } from "../../domain/uuid.js";
import type { ActorRuntime } from "../../runtime/actor-runtime.js";
import type { Clock } from "../../runtime/clock.js";
import { TOKENS } from "../../runtime/tokens.js";
import type { OperatorPrincipal } from "../principals.js";
import { CaseChanges } from "./case-changes.js";
import { DrillCases } from "./drill-cases.js";

/**
 * What a drill replays (spec 4.2 "Run a drill or shadow case: ADMIN"): a past case's flight and
 * manifest, or a synthetic disruption of `passengers` travellers at `airport`.
 */
export type DrillRequest =
  | { fromCaseUrn: string }
  | { synthetic: { airport: string; destination?: string; passengers: number } };

/** Synthetic passengers travel in parties of this size, one PNR each. */
const SYNTHETIC_PARTY = 2;

/**
 * Opens a drill: a new case marked `drill` that the normal automation (demand, allocation,
 * booking against the simulators) works like any other, while nothing reaches a passenger or a
 * partner and metrics leave it out. The case is listed in DrillCases before it opens, so even its
 * `case.opened` event is known as a drill's.
 */
@injectable()
export class Drills {
  constructor(
    @inject(TOKENS.actors) private readonly actors: ActorRuntime,
    @inject(CaseChanges) private readonly changes: CaseChanges,
    @inject(DrillCases) private readonly drills: DrillCases,
    @inject(TOKENS.clock) private readonly clock: Clock,
  ) {}

  async run(
    caller: OperatorPrincipal,
    request: DrillRequest,
    correlationUrn: string,
  ): Promise<OpenCaseResult> {
    const now = new Date(this.clock.now());
    const { flight, passengerGroups, nextFlight } = await this.disruptionOf(caller, request, now);
    const externalEventId = `drill-${randomUuid()}`;
    await this.drills.mark(caller.tenant, caseUrnFor(caller.tenant, externalEventId), now.toISOString());
    const result = await this.actors.invoke(CaseActor, caseIdFor(caller.tenant, externalEventId), "open", {
      tenant: caller.tenant,
      externalEventId,
      flight,
      ...(nextFlight ? { nextFlight } : {}),
      passengerGroups,
      openedBy: caller.actorUrn,
      correlationUrn,
      drill: true,
      intake: { source: "operator" },
    });
    await this.changes.record(result, { caller, correlationUrn });
    return result;
  }

  private async disruptionOf(caller: OperatorPrincipal, request: DrillRequest, now: Date) {
    if ("fromCaseUrn" in request) {
      // The past case is read as the caller may read it: its tenant, its airport.
      const { case: past } = await this.changes.snapshot(request.fromCaseUrn, caller);
      return { flight: past.flight, nextFlight: past.nextFlight, passengerGroups: past.passengerGroups };
    }
    const { airport, destination, passengers } = request.synthetic;
    return {
      flight: {
        number: "DRILL",
        origin: airport,
        destination: destination ?? airport,
        scheduledDeparture: now.toISOString(),
        status: "CANCELLED",
      },
      nextFlight: undefined,
      passengerGroups: syntheticGroups(passengers),
    };
  }
}

/**
 * Synthetic travellers. Each has an address of the reserved `.invalid` domain, since intake
 * sends a group without one to manual review; the notifier sends nothing for a drill anyway.
 */
function syntheticGroups(passengers: number): PassengerGroup[] {
  const groups: PassengerGroup[] = [];
  for (let first = 0; first < passengers; first += SYNTHETIC_PARTY) {
    const pnr = `DRL${String(groups.length + 1).padStart(3, "0")}`;
    const size = Math.min(SYNTHETIC_PARTY, passengers - first);
    groups.push({
      id: pnr,
      pnr,
      passengers: Array.from({ length: size }, (_, i) => ({
        id: `${pnr}-${i + 1}`,
        lastName: `Drill${first + i + 1}`,
        tier: "ECONOMY",
        contact: { email: `${pnr.toLowerCase()}-${i + 1}@drill.invalid` },
      })),
    });
  }
  return groups;
}
