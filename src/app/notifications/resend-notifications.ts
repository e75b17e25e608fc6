import { inject, injectable } from "tsyringe";
import { DomainError } from "../../domain/domain-error.js";
import { subCaseUrnFor } from "../../domain/sub-case.js";
import type { OperatorPrincipal } from "../principals.js";
import { CaseChanges } from "../cases/case-changes.js";
import { NotifyPassengers } from "./notify-passengers.js";
import type { NotificationReceipt, PassengerNotificationTemplate } from "./passenger-notifier.js";

export type ResendTemplate = Extract<PassengerNotificationTemplate, "voucher" | "offer-reminder">;

export interface ResendRequest {
  caseUrn: string;
  groupIds: readonly string[];
  template: ResendTemplate;
  /** The request's Idempotency-Key: the same key sends each group once. */
  idempotencyKey: string | undefined;
  correlationUrn: string;
}

export interface ResendReceipt extends NotificationReceipt {
  groupId: string;
}

/**
 * An operator's manual send (spec 4.1 `POST /v1/notifications/{case_urn}/send`, e.g. resend the
 * voucher): a template, never free text, to named groups of a case the operator may act on. Every
 * group must be in the case before anything is sent. Without an Idempotency-Key each request is a
 * new send; with one, a retry of the request sends nothing again.
 */
@injectable()
export class ResendNotifications {
  constructor(
    @inject(CaseChanges) private readonly cases: CaseChanges,
    @inject(NotifyPassengers) private readonly notifier: NotifyPassengers,
  ) {}

  async send(request: ResendRequest, operator: OperatorPrincipal): Promise<ResendReceipt[]> {
    const snapshot = await this.cases.snapshot(request.caseUrn, operator);
    const { urn: caseUrn, tenant } = snapshot.case;
    const known = new Set(snapshot.case.passengerGroups.map((g) => g.id));
    const unknown = request.groupIds.filter((id) => !known.has(id));
    if (unknown.length > 0) {
      throw new DomainError("not-found", "group-not-found", `No group ${unknown.join(", ")} in ${caseUrn}`, {
        groupIds: unknown,
      });
    }
    const run = request.idempotencyKey ?? request.correlationUrn;
    const receipts: ResendReceipt[] = [];
    for (const groupId of new Set(request.groupIds)) {
      const receipt = await this.notifier.notify({
        tenant,
        caseUrn,
        groupId,
        subCaseUrn: subCaseUrnFor(caseUrn, groupId),
        template: request.template,
        correlationUrn: request.correlationUrn,
        dedupeKey: `manual:${caseUrn}:${groupId}:${request.template}:${run}`,
        requestedBy: operator.actorUrn,
      });
      receipts.push({ groupId, ...receipt });
    }
    return receipts;
  }
}
