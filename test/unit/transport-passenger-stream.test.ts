import { describe, expect, it } from "vitest";
import type { EventOf } from "../../src/domain/events/catalogue.js";
import { subCaseUrnFor } from "../../src/domain/sub-case.js";
import { passengerTransportView, voucherLegsOf } from "../../src/domain/transport/segment-views.js";
import type { TransportSegment } from "../../src/domain/transport/transport-segment.js";
import {
  PASSENGER_STREAM_TYPES,
  passengerStreamMessage,
  passengerStreamOf,
  type PassengerStreamType,
} from "../../services/passenger-api/passenger-stream-events.js";

const CASE = "urn:case:0b8f3a52-6b1e-4d7f-9a0e-5c2b8d1e4f60";
const AT = "2026-11-21T22:00:00.000Z";

const segment = (overrides: Partial<TransportSegment> = {}): TransportSegment => ({
  urn: "urn:transport-segment:s1",
  tenant: "urn:airline:ZX",
  caseUrn: CASE,
  airport: "JFK",
  groupId: "G1",
  reservationUrn: "urn:reservation:r1:vendor:manual:status:confirmed",
  direction: "AIRPORT_TO_HOTEL",
  scheduledAt: "2026-11-21T23:30:00.000Z",
  vehicleType: "SHUTTLE",
  specialRequirements: [],
  passengers: 2,
  pickupLocation: "JFK airport, arrivals curb",
  dropoffLocation: "Harbor Inn, 5 Pier Rd",
  status: "BOOKED",
  ride: {
    provider: "rides",
    rideId: "ride-1",
    poolId: null,
    vehicle: "shuttle K123-45",
    driver: "B. Okafor",
    dispatcherPhone: "+15550100999",
    etaAt: "2026-11-21T23:25:00.000Z",
    quote: { amountMinor: 2_500, currency: "USD" },
  },
  providerError: null,
  cancellation: null,
  requestedBy: "urn:user:op",
  generation: 1,
  version: 3,
  createdAt: AT,
  updatedAt: AT,
  ...overrides,
});

function event(type: PassengerStreamType, data: TransportSegment): EventOf<PassengerStreamType> {
  return {
    id: "urn:event:1",
    type,
    tenant: "urn:airline:ZX",
    caseUrn: CASE,
    occurredAt: AT,
    correlationUrn: "urn:trace:1",
    data: {
      segmentUrn: data.urn,
      caseUrn: CASE,
      groupId: data.groupId,
      segment: data,
      by: "urn:ride-provider:rides",
    },
  } as unknown as EventOf<PassengerStreamType>;
}

describe("transport on the passenger's stream and views", () => {
  it("carries the ETA to the group's stream as the passenger sees the leg, without the fare or who asked", () => {
    expect(PASSENGER_STREAM_TYPES).toContain("transport.eta-updated");
    const eta = event("transport.eta-updated", segment());
    expect(passengerStreamOf(eta)).toBe(subCaseUrnFor(CASE, "G1"));
    expect(passengerStreamMessage(eta)).toEqual({
      id: "urn:event:1",
      at: AT,
      event: "transport.eta-updated",
      data: {
        segmentUrn: "urn:transport-segment:s1",
        status: "BOOKED",
        vehicleType: "SHUTTLE",
        direction: "AIRPORT_TO_HOTEL",
        pickupLocation: "JFK airport, arrivals curb",
        pickupTime: "2026-11-21T23:30:00.000Z",
        vehicle: "shuttle K123-45, B. Okafor",
        dispatcherPhone: "+15550100999",
        etaAt: "2026-11-21T23:25:00.000Z",
        at: AT,
      },
    });
  });

  it("tells the group a leg was cancelled", () => {
    const cancelled = event("transport.segment-cancelled", segment({ status: "CANCELLED" }));
    expect(passengerStreamMessage(cancelled).data).toEqual({
      segmentUrn: "urn:transport-segment:s1",
      direction: "AIRPORT_TO_HOTEL",
      status: "CANCELLED",
      at: AT,
    });
  });

  it("puts only confirmed legs on the voucher, and sums the group's status", () => {
    const back = segment({
      urn: "urn:transport-segment:s2",
      direction: "HOTEL_TO_AIRPORT",
      status: "PENDING",
      ride: null,
    });
    expect(voucherLegsOf([back, segment()])).toEqual([
      {
        direction: "AIRPORT_TO_HOTEL",
        pickupLocation: "JFK airport, arrivals curb",
        pickupTime: "2026-11-21T23:30:00.000Z",
        vehicle: "shuttle K123-45, B. Okafor",
        dispatcherPhone: "+15550100999",
      },
    ]);
    expect(passengerTransportView([segment(), back]).status).toBe("PENDING");
    expect(passengerTransportView([segment(), back]).legs.map((l) => l.direction)).toEqual([
      "AIRPORT_TO_HOTEL",
      "HOTEL_TO_AIRPORT",
    ]);
    expect(passengerTransportView([segment({ status: "DECLINED", ride: null })]).status).toBe("DECLINED");
    expect(passengerTransportView([segment({ status: "CANCELLED" })])).toEqual({ status: "NONE", legs: [] });
    expect(passengerTransportView([])).toEqual({ status: "NONE", legs: [] });
  });
});
