import { inject, injectable } from "tsyringe";
import type { TransportSegmentEventData } from "../../domain/events/transport.js";
import { subCaseUrnFor } from "../../domain/sub-case.js";
import { TOKENS } from "../../runtime/tokens.js";
import type { NotificationReceipt, PassengerNotifier } from "../notifications/passenger-notifier.js";
import { CaseChanges } from "../cases/case-changes.js";
import { TRANSPORT_SYSTEM_ACTOR } from "./ride-booking.js";

/**
 * The return-leg e-mail (spec 8.2: "about 12 hours before the re-accommodated flight"): when a
 * booked return leg's reminder fires (`transport.return-leg-due`), the group is told when and where
 * the ride back to the airport picks it up, through the notification port, e-mail first. One
 * message per leg and generation: a redelivered event, or the reminder firing twice, sends nothing
 * more (the notifier's dedupe key).
 */
@injectable()
export class ReturnLegReminders {
  constructor(
    @inject(TOKENS.passengerNotifier) private readonly notifier: PassengerNotifier,
    @inject(CaseChanges) private readonly cases: CaseChanges,
  ) {}

  async send(event: {
    tenant: string;
    correlationUrn: string;
    data: TransportSegmentEventData;
  }): Promise<NotificationReceipt> {
    const { segment } = event.data;
    const snapshot = await this.cases.snapshot(segment.caseUrn);
    return this.notifier.notify({
      tenant: segment.tenant,
      caseUrn: segment.caseUrn,
      groupId: segment.groupId,
      subCaseUrn: subCaseUrnFor(segment.caseUrn, segment.groupId),
      template: "transport-return",
      correlationUrn: event.correlationUrn,
      dedupeKey: `transport-return:${segment.urn}:${segment.generation}`,
      requestedBy: TRANSPORT_SYSTEM_ACTOR,
      channels: ["email", "sms", "messaging"],
      details: {
        ...(snapshot.case.nextFlight ? { nextFlight: snapshot.case.nextFlight.number } : {}),
        pickupTime: readableUtc(segment.scheduledAt),
        pickupLocation: segment.pickupLocation,
      },
    });
  }
}

/** `2026-11-22 15:00 UTC`: unambiguous in every language the templates have. */
function readableUtc(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}
