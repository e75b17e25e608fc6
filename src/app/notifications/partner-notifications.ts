import { inject, injectable } from "tsyringe";
import { DomainError } from "../../domain/domain-error.js";
import { subCaseUrnFor } from "../../domain/sub-case.js";
import { parseUrn } from "../../domain/urn.js";
import type { Clock } from "../../runtime/clock.js";
import type { CounterStore } from "../../runtime/counter-store.js";
import { TOKENS } from "../../runtime/tokens.js";
import { CaseChanges } from "../cases/case-changes.js";
import { CaseReads } from "../cases/case-reads.js";
import type { PartnerPrincipal } from "../principals.js";
import { NotifyPassengers } from "./notify-passengers.js";
import type { NotificationReceipt } from "./passenger-notifier.js";
import type { ResendTemplate } from "./resend-notifications.js";

/**
 * Spec 8.1: notify writes are bounded per partner beyond the tier's write rate; the spec gives no
 * figure, so this is ours: 60 an hour per registration, all of them at once at most.
 */
export const PARTNER_NOTIFY_PER_HOUR = 60;

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
    @inject(TOKENS.counters) private readonly counters: CounterStore,
    @inject(TOKENS.clock) private readonly clock: Clock,
  ) {}

  async send(partner: PartnerPrincipal, request: PartnerNotifyRequest): Promise<PartnerNotifyOutcome> {
    const grant = await this.counters.takeToken(`partner-notify:${partner.tenant}:${partner.clientId}`, {
      capacity: PARTNER_NOTIFY_PER_HOUR,
      refillPerMs: PARTNER_NOTIFY_PER_HOUR / 3_600_000,
      now: this.clock.now(),
    });
    if (!grant.allowed) {
      return { limited: true, retryAfterSeconds: Math.max(1, Math.ceil(grant.retryAfterMs / 1000)) };
    }
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
