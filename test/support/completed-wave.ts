import { WAVES_COLLECTION } from "../../src/app/allocation/wave-documents.js";
import type { BookingAllocation, BookingWave } from "../../src/app/booking/wave-reader.js";
import { type DomainEvent, topicFor } from "../../src/domain/domain-event.js";
import { BOOKING_EVENTS } from "../../src/domain/events/booking.js";
import { urn } from "../../src/domain/urn.js";
import type { Platform } from "../../src/main.js";

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
