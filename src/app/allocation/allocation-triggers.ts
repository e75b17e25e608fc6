import { AllocationScheduleActor, batchScheduleId } from "../../../actors/AllocationScheduleActor.js";
import { CaseActor } from "../../../actors/CaseActor.js";
import { DomainError } from "../../domain/domain-error.js";
import type { BatchScope, RerunRequestedData } from "../../domain/events/allocation.js";
import type { DemandApprovedData } from "../../domain/events/demand.js";
import type { ActorRuntime } from "../../runtime/actor-runtime.js";
import type { DocumentStore } from "../../runtime/document-store.js";
import { caseRefOf } from "../cases/case-changes.js";
import { policyForCase } from "../cases/case-policy.js";
import { DEMANDS_COLLECTION, type DemandDocument } from "../demand/demand-index.js";
import { PolicyIndex } from "../policies/policy-index.js";
import { AllocationWaves, type WaveResult } from "./allocation-waves.js";
import { latestWaveOf } from "./wave-documents.js";
import { inject, injectable } from "tsyringe";
import { TOKENS } from "../../runtime/tokens.js";

/** Who starts the waves the platform runs by itself. */
export const ALLOCATION_ACTOR = "urn:system:allocation";

export type ApprovalOutcome =
  | WaveResult
  | { outcome: "scheduled"; scope: BatchScope }
  | { outcome: "no-case" };

/**
 * When waves run by themselves (spec 2.4 mode, 3.1 "allocation job enqueued"): as soon as demand is
 * approved under an ON_DEMAND policy (or no policy at all, which sends the case to manual review),
 * on the airport's 15-minute schedule under a BATCH policy, and when manual review relaxed a
 * case's policy.
 */
@injectable()
export class AllocationTriggers {
  constructor(
    @inject(TOKENS.actors) private readonly actors: ActorRuntime,
    @inject(TOKENS.documents) private readonly documents: DocumentStore,
    @inject(PolicyIndex) private readonly policies: PolicyIndex,
    @inject(AllocationWaves) private readonly waves: AllocationWaves,
  ) {}

  async onDemandApproved(data: DemandApprovedData, correlationUrn: string): Promise<ApprovalOutcome> {
    const { actors, policies, waves } = this;
    const record = await actors.invoke(CaseActor, caseRefOf(data.caseUrn).id, "get");
    if (!record) return { outcome: "no-case" };
    const policy = await policyForCase(policies, record);
    if (policy?.mode === "BATCH") {
      const scope = { tenant: record.tenant, airport: record.flight.origin };
      await actors.invoke(AllocationScheduleActor, batchScheduleId(scope), "arm", scope);
      return { outcome: "scheduled", scope };
    }
    return waves.run({
      caseUrn: record.urn,
      demandUrn: data.demandUrn,
      trigger: { kind: "demand-approved", by: ALLOCATION_ACTOR },
      correlationUrn,
    });
  }

  /**
   * The case's wave again, now under its relaxed policy (the wave reads the override), for the
   * demand its latest wave served. The platform runs it and books what it allocates: the groups
   * that were not booked get booked, and those already holding a reservation are left out of the
   * wave (and booking never books a group twice). Once per request, however often it is delivered.
   */
  async onRerunRequested(
    data: RerunRequestedData,
    requestId: string,
    correlationUrn: string,
  ): Promise<WaveResult> {
    const { actors, documents, waves } = this;
    const record = await actors.invoke(CaseActor, caseRefOf(data.caseUrn).id, "get");
    if (!record) throw new DomainError("not-found", "case", `No case ${data.caseUrn}`);
    const latest = await latestWaveOf(documents, record.tenant, record.urn);
    return waves.run({
      caseUrn: record.urn,
      ...(latest?.demandUrn ? { demandUrn: latest.demandUrn } : {}),
      trigger: {
        kind: "rerun",
        by: ALLOCATION_ACTOR,
        ...(latest ? { rerunOf: latest.urn } : {}),
        reviewItemUrn: data.reviewItemUrn,
      },
      autoBook: true,
      requestId,
      correlationUrn,
    });
  }

  /**
   * One wave per approved demand waiting at the airport. A demand whose wave is still running, or
   * failed, keeps the schedule armed for the next round; once every one is handled it stands down.
   */
  async onBatchDue(scope: BatchScope, correlationUrn: string): Promise<WaveResult[]> {
    const { actors, documents, waves } = this;
    const waiting = await documents
      .collection<DemandDocument>(DEMANDS_COLLECTION)
      .findAll(
        { tenant: scope.tenant, airport: scope.airport, state: "APPROVED" },
        { sort: { requestedAt: 1 } },
      );
    const results: WaveResult[] = [];
    let pending = false;
    for (const demand of waiting) {
      try {
        results.push(
          await waves.run({
            caseUrn: demand.caseUrn,
            demandUrn: demand.urn,
            trigger: { kind: "batch", by: ALLOCATION_ACTOR },
            correlationUrn,
          }),
        );
      } catch (error) {
        if (!(error instanceof DomainError) || error.code === "wave-in-progress") pending = true;
      }
    }
    if (!pending) await actors.invoke(AllocationScheduleActor, batchScheduleId(scope), "standDown");
    return results;
  }
}
