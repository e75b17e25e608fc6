import { inject, injectable } from "tsyringe";
import { DomainError } from "../../domain/domain-error.js";
import { verifyCallbackSignature } from "../../domain/notification-callbacks.js";
import { RIDE_CALLBACK_TYPES, type RideCallback } from "../../domain/transport/ride-callbacks.js";
import type { RideProgress } from "../../domain/transport/transport-segment.js";
import type { Clock } from "../../runtime/clock.js";
import type { CounterStore } from "../../runtime/counter-store.js";
import { TOKENS } from "../../runtime/tokens.js";
import type { SignedCallback } from "../notifications/delivery-callbacks.js";
import { RideBooking, type RideProviderBinding } from "./ride-booking.js";
import { TransportSegmentIndex } from "./transport-segment-index.js";

export type RideCallbackOutcome =
  | { outcome: "bad-signature" }
  | { outcome: "duplicate"; segmentUrns: string[] }
  | { outcome: "applied"; segmentUrns: string[] };

/** Longer than the provider retries one callback. */
const SEEN_EVENT_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The ride provider's progress callbacks (spec 6.3, 4.4 "transport ETA"): verified against the
 * provider's secret before anything is read, deduplicated by event id, and applied to every
 * segment riding in the ride (a shuttle run carries several groups). A driver assignment or an ETA
 * becomes `transport.eta-updated`, which the group's passenger stream carries.
 */
@injectable()
export class RideCallbacks {
  constructor(
    @inject(TOKENS.rideProvider) private readonly binding: RideProviderBinding,
    @inject(TransportSegmentIndex) private readonly index: TransportSegmentIndex,
    @inject(RideBooking) private readonly rides: RideBooking,
    @inject(TOKENS.counters) private readonly counters: CounterStore,
    @inject(TOKENS.clock) private readonly clock: Clock,
  ) {}

  async receive(provider: string, callback: SignedCallback): Promise<RideCallbackOutcome> {
    if (provider !== this.binding.provider.id) {
      throw new DomainError("not-found", "unknown-provider", `No ride provider "${provider}"`);
    }
    const { rawBody, signature, timestamp } = callback;
    if (
      !verifyCallbackSignature(this.binding.callbackSecret, signature, timestamp, rawBody, this.clock.now())
    ) {
      return { outcome: "bad-signature" };
    }
    const event = parseCallback(rawBody);
    const segments = await this.index.ofRide(event.rideId);
    if (segments.length === 0) {
      throw new DomainError(
        "not-found",
        "unknown-ride",
        `No segment rides in ${provider} ride ${event.rideId}`,
      );
    }
    const segmentUrns = segments.map((s) => s.urn);
    const seenKey = `ride-callback:${provider}:${callback.eventId ?? event.eventId}`;
    if (!(await this.counters.setIfAbsent(seenKey, "1", SEEN_EVENT_TTL_MS))) {
      return { outcome: "duplicate", segmentUrns };
    }
    try {
      const progress = progressOf(event);
      const traced = { by: `urn:ride-provider:${provider}`, correlationUrn: callback.correlationUrn };
      await Promise.all(segments.map((s) => this.rides.progress(s, progress, traced)));
      return { outcome: "applied", segmentUrns };
    } catch (error) {
      // Not applied: the provider's retry of the same event must not be dropped as a duplicate.
      await this.counters.delete(seenKey);
      throw error;
    }
  }
}

function progressOf(event: RideCallback): RideProgress {
  switch (event.type) {
    case "driver-assigned":
    case "eta":
      return {
        kind: "eta",
        etaAt: event.etaAt!,
        ...(event.vehicle !== undefined ? { vehicle: event.vehicle } : {}),
        ...(event.driver !== undefined ? { driver: event.driver } : {}),
      };
    case "completed":
      return { kind: "completed" };
    case "cancelled":
      return { kind: "cancelled", code: event.code ?? "CANCELLED_BY_PROVIDER" };
  }
}

/** The callback's body; the route's schema has checked it, this reads it as signed. */
function parseCallback(rawBody: string): RideCallback {
  const parsed = JSON.parse(rawBody) as RideCallback;
  const etaNeeded = parsed.type === "driver-assigned" || parsed.type === "eta";
  if (
    typeof parsed.rideId !== "string" ||
    !RIDE_CALLBACK_TYPES.includes(parsed.type) ||
    (etaNeeded && (typeof parsed.etaAt !== "string" || Number.isNaN(Date.parse(parsed.etaAt))))
  ) {
    throw new DomainError("invalid", "invalid-callback", "The callback names no ride, type or ETA");
  }
  return parsed;
}
