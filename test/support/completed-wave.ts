import { WAVES_COLLECTION } from "../../src/app/allocation/wave-documents.js";
import type { Hotel } from "../../src/domain/allocation/dedup.js";
import { money } from "../../src/domain/money.js";
import type { BookingAllocation, BookingWave } from "../../src/app/booking/wave-reader.js";
import { type DomainEvent, topicFor } from "../../src/domain/domain-event.js";
import { BOOKING_EVENTS } from "../../src/domain/events/booking.js";
import { urn } from "../../src/domain/urn.js";
import type { Platform } from "../../src/main.js";
import { hotelSearchOf } from "./container.js";

/** The night the booking tests stay: local dates at the airport. */
export interface Night {
  checkIn: string;
  checkOut: string;
}

/** The hotels at `airport` with a room for the night whose every offer takes a guarantee. */
export async function guaranteedHotels(
  platform: Platform,
  tenant: string,
  night: Night,
  airport = "JFK",
): Promise<Hotel[]> {
  const { hotels } = await hotelSearchOf(platform).searchHotels({ tenant, airport, ...night, rooms: 1 });
  return hotels.filter((h) => h.offers.every((o) => o.payments.includes("GUARANTEE")));
}

/**
 * One room for the night at the hotel's first offer, as a wave would allocate it; its other offers
 * become the booking's alternatives when `withAlternatives`.
 */
export function oneRoomAllocation(
  groupId: string,
  hotel: Hotel,
  night: Night,
  withAlternatives = false,
): BookingAllocation {
  const [offer, ...others] = hotel.offers;
  return {
    groupId,
    hotelUrn: hotel.hotelUrn,
    vendor: offer!.provider,
    providerOfferId: offer!.providerOfferId,
    alternatives: withAlternatives
      ? others.map((o) => ({ vendor: o.provider, providerOfferId: o.providerOfferId }))
      : [],
    rooms: 1,
    nights: 1,
    ...night,
    cost: money(15_000, "USD"),
  };
}

/**
 * What allocation leaves behind for booking: a COMPLETED `waves` document with `allocations` (and
 * the hotels it recorded, when given) and its `allocation.wave-completed` event, autoBook off, so
 * the test books it with the operator's book-rooms. Answers the wave's URN.
 */
export async function completeWave(
  platform: Platform,
  wave: {
    tenant: string;
    caseUrn: string;
    allocations: BookingAllocation[];
    hotels?: BookingWave["hotels"];
    correlationUrn?: string;
  },
): Promise<string> {
  const { tenant, caseUrn, allocations } = wave;
  const waveUrn = urn("wave");
  await platform.runtime.documents.collection<BookingWave>(WAVES_COLLECTION).insert({
    _id: waveUrn,
    tenant,
    caseUrn,
    demandUrn: null,
    policyUrn: null,
    policyVersion: null,
    status: "COMPLETED",
    rankingInputs: [],
    allocations,
    unallocated: [],
    hotels: wave.hotels ?? [],
    createdAt: new Date().toISOString(),
  });
  const event: DomainEvent = {
    id: urn("event"),
    type: BOOKING_EVENTS.waveCompleted,
    tenant,
    occurredAt: new Date().toISOString(),
    correlationUrn: wave.correlationUrn ?? "urn:trace:00000000000000000000000000000001",
    caseUrn,
    data: { waveUrn, caseUrn, demandUrn: null, autoBook: false, allocations },
  };
  await platform.runtime.bus.publish(topicFor(event), event);
  return waveUrn;
}
