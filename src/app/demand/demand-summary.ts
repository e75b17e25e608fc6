import type { CaseSnapshot } from "../../../actors/CaseActor.js";
import { DemandActor } from "../../../actors/DemandActor.js";
import { type DemandSummary, demandSummary } from "../../domain/demand.js";
import type { OperatorPrincipal } from "../principals.js";
import type { ActorRuntime } from "../../runtime/actor-runtime.js";
import { caseSnapshotFor } from "../cases/case-access.js";
import { CaseFulfilmentReader } from "../cases/case-fulfilment.js";
import { caseIdOf } from "../../domain/demand-addresses.js";
import { inject, injectable } from "tsyringe";
import { TOKENS } from "../../runtime/tokens.js";
import { utcOffsetMinutesAt } from "../stays/airport-time.js";
import { stayNeedsOf } from "../stays/wave-stays.js";
import { airportByCode, type Directory } from "../directory.js";

/**
 * A case's demand against what allocation and booking achieved (spec 2.3): totals in rooms and
 * the reasons for any shortfall, each unbooked group explained by its most urgent open review item,
 * and rooms no wave can house (spec 3.1) explained by why.
 */
@injectable()
export class CaseDemandSummary {
  constructor(
    @inject(TOKENS.actors) private readonly actors: ActorRuntime,
    @inject(CaseFulfilmentReader) private readonly fulfilment: CaseFulfilmentReader,
    @inject(TOKENS.directory) private readonly directory: Directory,
  ) {}

  async of(principal: OperatorPrincipal, caseUrn: string): Promise<DemandSummary & { caseUrn: string }> {
    const snapshot = await caseSnapshotFor(this.actors, principal, caseUrn);
    const [ledger, fulfilment, noOvernightGap] = await Promise.all([
      this.actors.invoke(DemandActor, caseIdOf(snapshot.case.urn)!, "get"),
      this.fulfilment.of(snapshot),
      this.noOvernightGap(snapshot),
    ]);
    return {
      caseUrn: snapshot.case.urn,
      ...demandSummary(ledger?.demands ?? [], {
        groups: snapshot.case.passengerGroups,
        ...fulfilment,
        noOvernightGap,
      }),
    };
  }

  /**
   * Whether the passengers need no night: the same stay rules a wave applies (wave-stays), so the
   * summary explains the demand a wave refuses as nothing to allocate. An airport the directory
   * does not know leaves only the case's stored stay plan to tell.
   */
  private async noOvernightGap(snapshot: CaseSnapshot): Promise<boolean> {
    const { flight } = snapshot.case;
    const airport = await airportByCode(this.directory, flight.origin);
    if (!airport) return snapshot.stayPlan?.overnightGap === false;
    return !stayNeedsOf(snapshot, utcOffsetMinutesAt(airport, Date.parse(flight.scheduledDeparture))).stay;
  }
}
