import type { ReviewItem } from "../../domain/review-item.js";
import { inject, injectable } from "tsyringe";
import { CaseChanges } from "../cases/case-changes.js";
import { CaseStatusCommands } from "../cases/case-status.js";
import { ReviewQueueIndex } from "./review-queue-index.js";

/**
 * Spec 3.3: a case in MANUAL_REVIEW returns to the normal flow when the review item that holds it
 * is resolved; the case lifecycle audits the move with who resolved and why. Only a
 * POLICY_VIOLATION item sends a case there, so the case stays while another such item of it is
 * still unresolved. Idempotent: a case already back (or closed meanwhile) is left as it is.
 */
@injectable()
export class CaseReturn {
  constructor(
    @inject(CaseChanges) private readonly changes: CaseChanges,
    @inject(CaseStatusCommands) private readonly status: CaseStatusCommands,
    @inject(ReviewQueueIndex) private readonly index: ReviewQueueIndex,
  ) {}

  async afterResolved(item: ReviewItem, correlationUrn: string): Promise<void> {
    if (!item.resolution) return;
    const snapshot = await this.changes.snapshot(item.caseUrn);
    if (snapshot.case.status !== "MANUAL_REVIEW") return;
    const holding = await this.index.unresolvedOfCase(item.tenant, item.caseUrn, ["POLICY_VIOLATION"]);
    if (holding.some((other) => other._id !== item.urn)) return;
    await this.status.returnToFlow(item.caseUrn, {
      reason: `Review item ${item.urn} resolved (${item.resolution.resolution}): ${item.resolution.reason}`,
      resolvedBy: item.resolution.by,
      correlationUrn,
    });
  }
}
