import { CaseActor, type CaseChangeResult } from "../../../actors/CaseActor.js";
import { SYSTEM_ACTOR } from "../../domain/case-lifecycle.js";
import type { OperatorPrincipal } from "../principals.js";
import type { ActorRuntime } from "../../runtime/actor-runtime.js";
import type { AuditLog } from "../audit-log.js";
import { CaseChanges } from "./case-changes.js";
import { inject, injectable } from "tsyringe";
import { TOKENS } from "../../runtime/tokens.js";

/**
 * The case state machine of spec 3.3 as commands: close and reopen by operators, and the moves the
 * platform's own flows make (allocation sends a case to manual review, the review queue sends it
 * back, booking reports reservations until every one is checked out).
 */
@injectable()
export class CaseStatusCommands {
  constructor(
    @inject(TOKENS.actors) private readonly actors: ActorRuntime,
    @inject(CaseChanges) private readonly changes: CaseChanges,
    @inject(TOKENS.audit) private readonly audit: AuditLog,
  ) {}

  /** AIRPORT_OPERATOR or higher, with a reason; passenger tokens of the case stop working. */
  close(caller: OperatorPrincipal, caseUrn: string, reason: string, correlationUrn: string) {
    return this.changes.change({
      caseUrn,
      caller,
      correlationUrn,
      command: (id) =>
        this.actors.invoke(CaseActor, id, "close", {
          reason,
          by: caller.actorUrn,
          role: caller.role,
          correlationUrn,
        }),
    });
  }

  /**
   * ADMIN only, gated by audit (spec 3.3): the request is written to the audit trail before the
   * case moves, so a reopen that cannot be recorded does not happen.
   */
  async reopen(
    caller: OperatorPrincipal,
    caseUrn: string,
    reason: string | undefined,
    correlationUrn: string,
  ): Promise<CaseChangeResult> {
    const snapshot = await this.changes.snapshot(caseUrn, caller);
    await this.audit.append({
      tenant: snapshot.case.tenant,
      actorUrn: caller.actorUrn,
      action: "case.reopen-requested",
      entityUrn: snapshot.case.urn,
      caseUrn: snapshot.case.urn,
      correlationUrn,
      ...(reason ? { reason } : {}),
      before: { status: snapshot.case.status },
    });
    return this.changes.change({
      caseUrn,
      caller,
      correlationUrn,
      command: (id) =>
        this.actors.invoke(CaseActor, id, "reopen", {
          reason: reason ?? "",
          by: caller.actorUrn,
          role: caller.role,
          correlationUrn,
        }),
    });
  }

  /**
   * Allocation found no policy matching the case (spec 3.3): MANUAL_REVIEW with a POLICY_VIOLATION
   * review item. Called by the allocation flow, not by a route.
   */
  toManualReview(
    caseUrn: string,
    details: { reason: string; correlationUrn: string; affectedGroups?: string[] },
  ) {
    return this.changes.change({
      caseUrn,
      correlationUrn: details.correlationUrn,
      command: (id) => this.actors.invoke(CaseActor, id, "toManualReview", { ...details, by: SYSTEM_ACTOR }),
    });
  }

  /** The review item that held the case was resolved by `resolvedBy` (a user URN). */
  returnToFlow(caseUrn: string, details: { reason: string; resolvedBy: string; correlationUrn: string }) {
    return this.changes.change({
      caseUrn,
      correlationUrn: details.correlationUrn,
      command: (id) =>
        this.actors.invoke(CaseActor, id, "returnToFlow", {
          reason: details.reason,
          by: details.resolvedBy,
          correlationUrn: details.correlationUrn,
        }),
    });
  }

  /**
   * The booking flow reports a reservation's status; when every reservation of the case is
   * CHECKED_OUT the case closes by itself and its passenger tokens are revoked.
   */
  recordReservationStatus(
    caseUrn: string,
    report: {
      reservationUrn: string;
      groupId: string;
      status: string;
      checkIn?: string;
      checkOut?: string;
      correlationUrn: string;
    },
  ) {
    return this.changes.change({
      caseUrn,
      correlationUrn: report.correlationUrn,
      // The case it answers is only projected, once per reservation report (150 a full flight): not copied.
      command: (id) => this.actors.invokeReadOnly(CaseActor, id, "recordReservationStatus", report),
    });
  }
}
