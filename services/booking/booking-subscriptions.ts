import type { Logger } from "pino";
import { DomainError } from "../../src/domain/domain-error.js";
import { BOOKING_SYSTEM_ACTOR } from "../../src/domain/events/booking.js";
import { type EventSubscription, eventSubscription } from "../../src/runtime/subscription-policy.js";
import type { BookingUseCases } from "./booking-use-cases.js";

/** Booking and a logger, read when an event arrives (the platform may still be starting before). */
export type BookingProvider = () => { booking: BookingUseCases; logger: Logger };

/**
 * Booking's event handlers, one set per tenant topic. Each is idempotent as the bus requires
 * (delivery is at least once): bookings are keyed by wave and group, or by the event id of an
 * override or a re-booking request, so a redelivered event finds its work done. An event about a
 * case or wave that does not exist, or a case already closed, is refused (dead-lettered); anything
 * else is retried with backoff.
 */
export function bookingSubscriptions(
  tenants: readonly string[],
  context: BookingProvider,
): EventSubscription[] {
  const common = { onFailure: "retry-with-backoff", refuses: isFinal, log: () => context().logger } as const;
  const booking = () => context().booking;
  return tenants.flatMap((tenant) => [
    eventSubscription({
      ...common,
      name: `booking.flow.${tenant}`,
      tenant,
      types: [
        "allocation.wave-completed",
        "booking.wave-requested",
        "allocation.group-overridden",
        "booking.group-requested",
      ],
      handle: async (event) => {
        const { flow } = booking();
        switch (event.type) {
          case "allocation.wave-completed":
            if (!event.data.autoBook) return;
            await flow.bookWave(
              event.data.waveUrn,
              { requestedBy: BOOKING_SYSTEM_ACTOR, correlationUrn: event.correlationUrn },
              event.id,
            );
            return;
          case "booking.wave-requested":
            await flow.bookWave(
              event.data.waveUrn,
              { requestedBy: event.data.requestedBy, correlationUrn: event.correlationUrn },
              event.id,
            );
            return;
          case "allocation.group-overridden":
            await flow.bookOverride(event.data, event.id, {
              requestedBy: event.data.allocation.override?.by ?? BOOKING_SYSTEM_ACTOR,
              correlationUrn: event.correlationUrn,
            });
            return;
          case "booking.group-requested":
            await flow.bookRequested(event.data, event.id, event.correlationUrn);
            return;
        }
      },
    }),
    eventSubscription({
      ...common,
      name: `booking.outcomes.${tenant}`,
      tenant,
      types: ["reservation.confirmed", "reservation.cancelled", "booking.wave-settled"],
      handle: async (event) => {
        const { outcomes } = booking();
        if (event.type === "booking.wave-settled") {
          await outcomes.recordOnDemand(event.data, event.correlationUrn);
          return;
        }
        if (!event.caseUrn) throw new DomainError("not-found", "case-not-found", "The event names no case");
        await outcomes.reportToCase(event.caseUrn, event.data, event.correlationUrn);
      },
    }),
    eventSubscription({
      ...common,
      name: `booking.reconciliation.${tenant}`,
      tenant,
      types: ["booking.reconciliation-due"],
      handle: async (event) => {
        const { tenant: account, vendor, since } = event.data;
        await booking().reconciliation.poll(account, vendor, since, event.correlationUrn);
      },
    }),
  ]);
}

/** Retrying cannot help: the case or wave does not exist, or the case is closed. */
function isFinal(error: unknown): boolean {
  return (
    error instanceof DomainError &&
    (error.kind === "not-found" || (error.kind === "conflict" && error.code === "case-closed"))
  );
}
