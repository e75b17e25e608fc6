import { inject, injectable } from "tsyringe";
import { DomainError } from "../../domain/domain-error.js";
import { subCaseUrnFor } from "../../domain/sub-case.js";
import { parseUrn } from "../../domain/urn.js";
import { CaseChanges } from "../cases/case-changes.js";
import { CaseReads } from "../cases/case-reads.js";
import { PartnerWriteBounds } from "../partner-write-bounds.js";
import type { PartnerPrincipal } from "../principals.js";
import { NotifyPassengers } from "./notify-passengers.js";
import type { NotificationReceipt } from "./passenger-notifier.js";
import type { ResendTemplate } from "./resend-notifications.js";

export interface PartnerNotifyRequest {
  passengerUrn: string;
  template: ResendTemplate;
  /** The case to speak of; the passenger's latest case of the tenant when absent. */
  caseUrn: string | undefined;
  idempotencyKey: string | undefined;
  correlationUrn: string;
}

export type PartnerNotifyOutcome =
  | { limited: true; retryAfterSeconds: number }
  | { limited: false; caseUrn: string; groupId: string; receipt: NotificationReceipt };

/**
 * `POST /partner/v1/passengers/{passenger_urn}/notify` (spec 4.3, scope passenger.notify): a
 * template, never free text, to the passenger's group in a case of the partner's airline, on the
 * group's channels as every notification goes.
 */
@injectable()
export class PartnerNotifications {
  constructor(
    @inject(CaseReads) private readonly reads: CaseReads,
    @inject(CaseChanges) private readonly cases: CaseChanges,
    @inject(NotifyPassengers) private readonly notifier: NotifyPassengers,
    @inject(PartnerWriteBounds) private readonly bounds: PartnerWriteBounds,
  ) {}

  async send(partner: PartnerPrincipal, request: PartnerNotifyRequest): Promise<PartnerNotifyOutcome> {
    // Spec 8.1: bounded per partner beyond the tier's write rate (src/app/partner-write-bounds.ts).
    const bound = await this.bounds.take(partner, "notify");
    if (!bound.allowed) return { limited: true, retryAfterSeconds: bound.retryAfterSeconds };
    const passengerId = parseUrn(request.passengerUrn, "passenger")?.id;
    const caseUrn =
      request.caseUrn ??
      (passengerId
        ? (await this.reads.casesOfPassenger(partner, request.passengerUrn, { limit: 1 })).items[0]?.urn
        : undefined);
    const snapshot = caseUrn ? await this.cases.snapshot(caseUrn, partner) : undefined;
    const group = snapshot?.case.passengerGroups.find((g) => g.passengers.some((p) => p.id === passengerId));
    if (!snapshot || !group) {
      throw new DomainError(
        "not-found",
        "passenger-not-found",
        `No passenger ${request.passengerUrn} in ${caseUrn ?? "any case of the airline"}`,
      );
    }
    const { urn, tenant } = snapshot.case;
    const receipt = await this.notifier.notify({
      tenant,
      caseUrn: urn,
      groupId: group.id,
      subCaseUrn: subCaseUrnFor(urn, group.id),
      template: request.template,
      correlationUrn: request.correlationUrn,
      dedupeKey: `partner:${partner.clientId}:${urn}:${group.id}:${request.template}:${request.idempotencyKey ?? request.correlationUrn}`,
      requestedBy: partner.actorUrn,
    });
    return { limited: false, caseUrn: urn, groupId: group.id, receipt };
  }
}
