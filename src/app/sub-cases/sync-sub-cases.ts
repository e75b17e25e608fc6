import { CaseActor, type CaseOutline } from "../../../actors/CaseActor.js";
import { SubCaseActor, subCaseActorId, subCaseActorIdFor } from "../../../actors/SubCaseActor.js";
import type { SubCaseView } from "../../domain/events/sub-case.js";
import { parseUrn } from "../../domain/urn.js";
import type { ActorRuntime } from "../../runtime/actor-runtime.js";
import { SubCaseIndex } from "./sub-case-index.js";
import { inject, injectable } from "tsyringe";
import { TOKENS } from "../../runtime/tokens.js";

/** Rereads a case that keeps changing under a run at most this many times; its next event runs again. */
const MAX_ROUNDS = 3;

export interface SubCaseSync {
  /** Every active sub-case of the case, one per group, in group order. */
  active: SubCaseView[];
  retired: SubCaseView[];
}

/**
 * Keeps one sub-case per passenger group of a case (spec 2.2, 3.3 "sub-cases created"): run when
 * the case opens, whenever its manifest changes, and when it is closed or reopened. It reads the
 * case itself, so the event that triggers it need not carry the groups, and running it twice
 * changes nothing: sub-case ids derive from case and group. A group that left the case (split or
 * merged away) retires its sub-case; a CLOSED case freezes its sub-cases, a reopened one thaws them.
 */
@injectable()
export class SyncSubCases {
  constructor(
    @inject(TOKENS.actors) private readonly actors: ActorRuntime,
    @inject(SubCaseIndex) private readonly index: SubCaseIndex,
  ) {}

  /**
   * Undefined when there is no such case (yet). Two runs for the same case may overlap (the opening
   * and an amendment right after it), and the older one may write last; so a run ends by reading
   * the case again and repeats itself while the manifest changed under it.
   */
  async execute(caseUrn: string, correlationUrn: string): Promise<SubCaseSync | undefined> {
    const caseId = parseUrn(caseUrn, "case")?.id;
    if (!caseId) return undefined;
    let record = await this.actors.invoke(CaseActor, caseId, "outline");
    for (let round = 0; record; round++) {
      const sync = await this.apply(record, correlationUrn);
      const latest = await this.actors.invoke(CaseActor, caseId, "outline");
      if (!latest || latest.version === record.version || round === MAX_ROUNDS) return sync;
      record = latest;
    }
    return undefined;
  }

  private async apply(record: CaseOutline, correlationUrn: string): Promise<SubCaseSync> {
    const active = await Promise.all(
      record.groupIds.map((groupId) =>
        this.actors.invoke(SubCaseActor, subCaseActorIdFor(record.urn, groupId), "open", {
          caseUrn: record.urn,
          groupId,
          tenant: record.tenant,
          airport: record.airport,
          correlationUrn,
        }),
      ),
    );
    const following = await Promise.all(
      active.map((view) =>
        (view.caseClosedAt !== null) === (record.status === "CLOSED")
          ? view
          : this.actors
              .invoke(SubCaseActor, subCaseActorId(view.subCaseUrn)!, "followCase", {
                caseStatus: record.status,
                correlationUrn,
              })
              .then((followed) => followed ?? view),
      ),
    );
    await this.index.record(...following);
    // Every group now has its active sub-case: when they are all there is, no group has left.
    if ((await this.index.countActiveOfCase(record.urn)) === record.groupIds.length) {
      return { active: following, retired: [] };
    }
    const groupIds = new Set(record.groupIds);
    const departed = (await this.index.activeOfCase(record.urn)).filter((doc) => !groupIds.has(doc.groupId));
    const retired = (
      await Promise.all(
        departed.map((doc) =>
          this.actors.invoke(SubCaseActor, subCaseActorIdFor(record.urn, doc.groupId), "retire", {
            correlationUrn,
          }),
        ),
      )
    ).filter((view): view is SubCaseView => view !== undefined);
    await this.index.record(...retired);
    return { active: following, retired };
  }
}
