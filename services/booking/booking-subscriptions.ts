import {
  BOOKING_EVENTS,
  BOOKING_SYSTEM_ACTOR,
  type GroupRequestedData,
  type ReconciliationDueData,
  type ReservationEventData,
  type RetryDueData,
  type WaveRequestedData,
  type WaveSettledData,
} from "../../src/domain/events/booking.js";
import type { GroupOverriddenData, WaveCompletedData } from "../../src/app/booking/wave-document.js";
import { DomainError } from "../../src/domain/domain-error.js";
import { type DomainEvent, topicFor } from "../../src/domain/domain-event.js";
import type { DeliveryResult, Subscription } from "../../src/runtime/event-bus.js";
import type { Logger } from "pino";
import type { BookingUseCases } from "./booking-use-cases.js";

type Handler = (event: DomainEvent, booking: BookingUseCases) => Promise<unknown>;

/** Booking and a logger, read when an event arrives (the platform may still be starting before). */
export type BookingProvider = () => { booking: BookingUseCases; logger: Logger };

/**
 * Booking's event handlers, one set per tenant topic. Each is idempotent as the bus requires
 * (delivery is at least once): bookings are keyed by wave and group, or by the event id of an
 * override or a re-booking request, so a redelivered event finds its work done. An event about a
 * case or wave that does not exist, or a case already closed, is dropped; anything else retries.
 */
export function bookingSubscriptions(tenants: readonly string[], context: BookingProvider): Subscription[] {
  return tenants.flatMap((tenant) => [
    subscription(context, `booking.flow.${tenant}`, tenant, {
      [BOOKING_EVENTS.waveCompleted]: async (event, booking) => {
        const data = event.data as WaveCompletedData;
        if (!data.autoBook) return;
        await booking.flow.bookWave(data.waveUrn, {
          requestedBy: BOOKING_SYSTEM_ACTOR,
          correlationUrn: event.correlationUrn,
        });
      },
      [BOOKING_EVENTS.waveRequested]: async (event, booking) => {
        const data = event.data as WaveRequestedData;
        await booking.flow.bookWave(data.waveUrn, {
          requestedBy: data.requestedBy,
          correlationUrn: event.correlationUrn,
        });
      },
      [BOOKING_EVENTS.retryDue]: async (event, booking) => {
        const data = event.data as RetryDueData;
        await booking.flow.retryPending(data.caseUrn, data.bookingKeys, event.correlationUrn);
      },
      [BOOKING_EVENTS.groupOverridden]: async (event, booking) => {
        const data = event.data as GroupOverriddenData;
        await booking.flow.bookOverride(data, event.id, {
          requestedBy: data.allocation.override?.by ?? BOOKING_SYSTEM_ACTOR,
          correlationUrn: event.correlationUrn,
        });
      },
      [BOOKING_EVENTS.groupRequested]: async (event, booking) => {
        await booking.flow.bookRequested(event.data as GroupRequestedData, event.id, event.correlationUrn);
      },
    }),
    subscription(context, `booking.outcomes.${tenant}`, tenant, {
      [BOOKING_EVENTS.reservationConfirmed]: (event, booking) => reportToCase(event, booking),
      [BOOKING_EVENTS.reservationCancelled]: (event, booking) => reportToCase(event, booking),
      [BOOKING_EVENTS.waveSettled]: (event, booking) =>
        booking.outcomes.recordOnDemand(event.data as WaveSettledData, event.correlationUrn),
    }),
    subscription(context, `booking.reconciliation.${tenant}`, tenant, {
      [BOOKING_EVENTS.reconciliationDue]: async (event, booking) => {
        const data = event.data as ReconciliationDueData;
        await booking.reconciliation.poll(data.tenant, data.vendor, data.since, event.correlationUrn);
      },
    }),
  ]);
}

function reportToCase(event: DomainEvent, booking: BookingUseCases): Promise<void> {
  if (!event.caseUrn) throw new DomainError("not-found", "case-not-found", "The event names no case");
  return booking.outcomes.reportToCase(
    event.caseUrn,
    event.data as ReservationEventData,
    event.correlationUrn,
  );
}

function subscription(
  context: BookingProvider,
  name: string,
  tenant: string,
  handlers: Record<string, Handler>,
): Subscription {
  return {
    name,
    topic: topicFor({ tenant }),
    types: Object.keys(handlers),
    handler: async (event): Promise<DeliveryResult> => {
      const { booking, logger } = context();
      try {
        await handlers[event.type]!(event, booking);
        return "SUCCESS";
      } catch (error) {
        if (isFinal(error)) {
          logger.warn({ err: error, eventId: event.id, type: event.type }, "booking dropped an event");
          return "DROP";
        }
        logger.warn({ err: error, eventId: event.id, type: event.type }, "booking handler failed; retrying");
        return "RETRY";
      }
    },
  };
}

/** Retrying cannot help: the case or wave does not exist, or the case is closed. */
function isFinal(error: unknown): boolean {
  return (
    error instanceof DomainError &&
    (error.kind === "not-found" || (error.kind === "conflict" && error.code === "case-closed"))
  );
}
