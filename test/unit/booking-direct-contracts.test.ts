import { describe, expect, it } from "vitest";
import { DIRECT_CONTRACT_PROVIDER } from "../../src/app/allocation/wave-offers.js";
import { BOOKING_EVENTS } from "../../src/domain/events/booking.js";
import { DirectContracts } from "../../src/app/booking/direct-contracts.js";
import type { BookingAllocation } from "../../src/app/booking/wave-reader.js";
import { CONTRACTS_COLLECTION, type ContractDocument } from "../../src/app/hotels/contracts.js";
import type { Hotel } from "../../src/domain/allocation/dedup.js";
import { money } from "../../src/domain/money.js";
import {
  allocate,
  type BookingHarness,
  CHECK_IN,
  CHECK_OUT,
  groups,
  guaranteeHotels,
  startBookingHarness,
  waveOf,
  ZX,
} from "./booking-fixture.js";
import { startedEachTest } from "../support/each-test.js";

let h: BookingHarness;
startedEachTest(startBookingHarness, (harness) => {
  h = harness;
});

const CONTRACT_URN = "urn:contract:0b7c6d3e-1111-4222-8333-944445555666";

async function storeContract(hotel: Hotel, roomsPerNight: number): Promise<void> {
  const contract: ContractDocument = {
    _id: CONTRACT_URN,
    urn: CONTRACT_URN,
    tenant: ZX,
    hotelUrn: hotel.hotelUrn,
    hotelName: "Contract Inn",
    nightlyRate: 45,
    currency: "USD",
    roomsPerNight,
    validFrom: "2026-01-01",
    validTo: "2026-12-31",
    airports: ["JFK"],
    status: "ACTIVE",
    version: 1,
    createdBy: "urn:user:zx-supervisor",
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedBy: "urn:user:zx-supervisor",
    updatedAt: "2026-01-01T00:00:00.000Z",
  };
  await h.documents.collection<ContractDocument>(CONTRACTS_COLLECTION).insert(contract);
}

const contract = () => h.documents.collection<ContractDocument>(CONTRACTS_COLLECTION).get(CONTRACT_URN);

/** The group on the contract; the hotel's vendor offers are its alternatives, as a wave records them. */
function allocateDirect(
  groupId: string,
  hotel: Hotel,
  rooms: number,
  withAlternatives = false,
): BookingAllocation {
  return {
    ...allocate(groupId, hotel, rooms),
    vendor: DIRECT_CONTRACT_PROVIDER,
    providerOfferId: CONTRACT_URN,
    alternatives: withAlternatives
      ? hotel.offers.map((o) => ({
          vendor: o.provider,
          providerOfferId: o.providerOfferId,
          nightlyRate: o.nightlyRate,
        }))
      : [],
    cost: money(4_500 * rooms, "USD"),
  };
}

function vendorBookings(): number {
  return h.simulators.all.reduce(
    (sum, sim) => sum + sim.backend.changesSince(0).filter((c) => c.kind === "CREATED").length,
    0,
  );
}

async function bookWave(name: string, allocations: (hotel: Hotel) => BookingAllocation[], sizes: number[]) {
  const caseUrn = await h.openCase(name, groups(...sizes));
  const [hotel] = guaranteeHotels(h.hotels, 2);
  const waveUrn = await h.completeWave(waveOf(caseUrn, allocations(hotel!)));
  return { caseUrn, waveUrn, hotel: hotel! };
}

describe("a group allocated to a direct contract", () => {
  it("is booked against the contract with no vendor call: rooms taken for its nights, confirmed, a voucher issued", async () => {
    const [hotel] = guaranteeHotels(h.hotels, 2);
    await storeContract(hotel!, 3);
    const { caseUrn, waveUrn } = await bookWave("direct", (at) => [allocateDirect("G1", at, 2)], [3]);

    const [reservation, ...others] = Object.values((await h.ledger(caseUrn)).reservations);
    expect(others).toEqual([]);
    expect(reservation!.urn).toBe(
      `urn:reservation:${reservation!.id}:vendor:direct-contract:status:confirmed`,
    );
    expect(reservation).toMatchObject({
      status: "CONFIRMED",
      vendor: DIRECT_CONTRACT_PROVIDER,
      providerOfferId: CONTRACT_URN,
      waveUrn,
      hotel: { hotelUrn: hotel!.hotelUrn },
      checkIn: CHECK_IN,
      checkOut: CHECK_OUT,
      rooms: 2,
      payment: "GUARANTEE",
      cost: { amountMinor: 9_000, currency: "USD" },
      attemptedHotels: [],
    });
    expect(reservation!.vendorReservationId).toEqual(expect.any(String));
    expect(vendorBookings()).toBe(0);
    expect(await contract()).toMatchObject({
      roomsTaken: { [CHECK_IN]: 2 },
      holds: { [reservation!.vendorReservationId!]: { rooms: 2, nights: [CHECK_IN] } },
    });
    await h.until(
      () => h.eventsOf(BOOKING_EVENTS.voucherIssued, caseUrn).length === 1,
      "the voucher to be issued",
    );
    expect(h.eventsOf(BOOKING_EVENTS.voucherIssued, caseUrn)[0]!.data).toMatchObject({
      voucherUrn: `urn:voucher:${reservation!.id}`,
    });
  });

  it("moves on to the hotel's vendors when the contract has too few rooms left, recording why", async () => {
    const [hotel] = guaranteeHotels(h.hotels, 2);
    await storeContract(hotel!, 3);
    await bookWave("first", (at) => [allocateDirect("G1", at, 2)], [3]);
    const { caseUrn } = await bookWave("second", (at) => [allocateDirect("G1", at, 2, true)], [3]);

    const [reservation] = Object.values((await h.ledger(caseUrn)).reservations);
    expect(reservation).toMatchObject({
      status: "CONFIRMED",
      vendor: hotel!.offers[0]!.provider,
      attemptedHotels: [
        {
          hotelUrn: hotel!.hotelUrn,
          reason: "contract-exhausted",
          providerError: "CONTRACT_ROOMS_EXHAUSTED",
        },
      ],
    });
    expect(vendorBookings()).toBe(1);
    expect((await contract())?.roomsTaken).toEqual({ [CHECK_IN]: 2 });
  });

  it("fails as BOOKING_FAILED when the contract no longer covers the stay and nothing else was offered", async () => {
    const [hotel] = guaranteeHotels(h.hotels, 2);
    await storeContract(hotel!, 3);
    await h.documents
      .collection<ContractDocument>(CONTRACTS_COLLECTION)
      .updateOne({ _id: CONTRACT_URN }, { $set: { validTo: "2026-06-30" } });
    const { caseUrn } = await bookWave("expired", (at) => [allocateDirect("G1", at, 1)], [1]);

    const ledger = await h.ledger(caseUrn);
    expect(Object.values(ledger.reservations)).toEqual([]);
    expect(Object.values(ledger.bookings)).toMatchObject([
      {
        state: "FAILED",
        failure: { category: "BOOKING_FAILED", vendorErrorCode: "CONTRACT_NOT_COVERING" },
        attemptedHotels: [{ reason: "contract-not-covering", providerError: "CONTRACT_NOT_COVERING" }],
      },
    ]);
    expect((await contract())?.roomsTaken).toBeUndefined();
  });

  it("gives its rooms back when an override moves the group elsewhere", async () => {
    const [hotel, other] = guaranteeHotels(h.hotels, 2);
    await storeContract(hotel!, 3);
    const { caseUrn, waveUrn } = await bookWave("moved", (at) => [allocateDirect("G1", at, 2)], [3]);
    const [direct] = Object.values((await h.ledger(caseUrn)).reservations);

    await h.publish(BOOKING_EVENTS.groupOverridden, caseUrn, {
      waveUrn,
      caseUrn,
      groupId: "G1",
      allocation: allocate("G1", other!, 2),
    });

    const after = (await h.ledger(caseUrn)).reservations;
    expect(after[direct!.id]!.status).toBe("CANCELLED");
    expect(Object.values(after).find((r) => r.id !== direct!.id)).toMatchObject({
      status: "CONFIRMED",
      hotel: { hotelUrn: other!.hotelUrn },
    });
    const released = await contract();
    expect(released?.roomsTaken).toEqual({ [CHECK_IN]: 0 });
    expect(released?.holds).toEqual({});
  });
});

describe("DirectContracts", () => {
  it("lets only one of two simultaneous reservations take the last room", async () => {
    const [hotel] = guaranteeHotels(h.hotels, 1);
    await storeContract(hotel!, 1);
    const contracts = new DirectContracts(h.documents, h.clock);
    const request = {
      tenant: ZX,
      contractUrn: CONTRACT_URN,
      checkIn: CHECK_IN,
      checkOut: "2026-11-23",
      rooms: 1,
      guestNames: ["Ada Last"],
    };
    const outcomes = await Promise.all([contracts.reserve(request), contracts.reserve(request)]);
    expect(outcomes.map((o) => o.kind).sort()).toEqual(["refused", "reserved"]);
    expect(outcomes.find((o) => o.kind === "refused")).toMatchObject({ reason: "contract-exhausted" });
    expect((await contract())?.roomsTaken).toEqual({ [CHECK_IN]: 1, "2026-11-22": 1 });
  });

  it("gives a reservation's rooms back once, however often it is released", async () => {
    const [hotel] = guaranteeHotels(h.hotels, 1);
    await storeContract(hotel!, 2);
    const contracts = new DirectContracts(h.documents, h.clock);
    const request = {
      tenant: ZX,
      contractUrn: CONTRACT_URN,
      checkIn: CHECK_IN,
      checkOut: CHECK_OUT,
      guestNames: [],
    };
    const kept = await contracts.reserve({ ...request, rooms: 1 });
    const released = await contracts.reserve({ ...request, rooms: 1 });
    if (released.kind !== "reserved" || kept.kind !== "reserved") throw new Error("expected both reserved");
    const ref = { contractUrn: CONTRACT_URN, holdId: released.reservation.reservationId };

    expect(await contracts.release(ref)).toBe(true);
    expect(await contracts.release(ref)).toBe(false);
    expect(await contract()).toMatchObject({
      roomsTaken: { [CHECK_IN]: 1 },
      holds: { [kept.reservation.reservationId]: { rooms: 1 } },
    });
  });

  it("refuses another airline's contract as not covering the stay", async () => {
    const [hotel] = guaranteeHotels(h.hotels, 1);
    await storeContract(hotel!, 2);
    const outcome = await new DirectContracts(h.documents, h.clock).reserve({
      tenant: "urn:airline:VQ",
      contractUrn: CONTRACT_URN,
      checkIn: CHECK_IN,
      checkOut: CHECK_OUT,
      rooms: 1,
      guestNames: [],
    });
    expect(outcome).toEqual({
      kind: "refused",
      reason: "contract-not-covering",
      providerError: "CONTRACT_NOT_COVERING",
    });
  });
});
