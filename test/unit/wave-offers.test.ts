import { describe, expect, it } from "vitest";
import type { AllocationRow } from "../../src/app/allocation/wave-documents.js";
import {
  contractOffer,
  DIRECT_CONTRACT_PROVIDER,
  vendorOffersLessHeld,
  waveOffers,
} from "../../src/app/allocation/wave-offers.js";
import type { ContractDocument } from "../../src/app/hotels/contracts.js";
import type { CatalogHotelDocument } from "../../src/app/hotels/hotel-catalog.js";
import type { HotelOffer } from "../../src/domain/allocation/offer.js";
import { planWave } from "../../src/domain/allocation/wave.js";

const AIRPORT = { lat: 40.6413, lon: -73.7781 };
const RATES = { base: "USD", perBase: { EUR: 0.8, GBP: 0.5 } };

const hotel: CatalogHotelDocument = {
  _id: "urn:hotel:GP1000001",
  hotelUrn: "urn:hotel:GP1000001",
  airport: "JFK",
  name: "The Linden Hotel",
  address: "1 Rockaway Blvd, Jamaica 11430, US",
  lat: 40.66,
  lon: -73.79,
  stars: 4,
  chainId: null,
  amenities: ["AIRPORT_SHUTTLE"],
  distanceKm: 2.3,
  vendors: ["vendor-a", "vendor-b"],
};

const contract: ContractDocument = {
  _id: "urn:contract:c1",
  urn: "urn:contract:c1",
  tenant: "urn:airline:ZX",
  hotelUrn: hotel.hotelUrn,
  hotelName: hotel.name,
  nightlyRate: 90,
  currency: "USD",
  roomsPerNight: 10,
  validFrom: "2026-01-01",
  validTo: "2026-12-31",
  airports: ["JFK"],
  status: "ACTIVE",
  version: 1,
  createdBy: "urn:user:s",
  createdAt: "",
  updatedBy: "urn:user:s",
  updatedAt: "",
};

function vendorOffer(provider: string, id: string, amountMinor: number, currency: string, hotelUrn: string) {
  return {
    hotelUrn,
    provider,
    providerHotelId: `${provider}-h`,
    providerOfferId: id,
    name: hotel.name,
    address: hotel.address,
    lat: hotel.lat,
    lon: hotel.lon,
    stars: 4,
    chainId: null,
    amenities: ["AIRPORT_SHUTTLE"],
    nightlyRate: { amountMinor, currency },
    roomsAvailable: 20,
    payments: ["GUARANTEE"],
    isDirectContract: false,
  } satisfies HotelOffer;
}

function held(rooms: number, providerOfferId = contract.urn): AllocationRow {
  return {
    _id: `urn:case:other|G${rooms}`,
    tenant: "urn:airline:ZX",
    caseUrn: "urn:case:other",
    groupId: `G${rooms}`,
    rooms,
    waveUrn: "urn:wave:other.1",
    hotelUrn: hotel.hotelUrn,
    provider: DIRECT_CONTRACT_PROVIDER,
    providerOfferId,
    checkIn: "2026-11-21",
    checkOut: "2026-11-22",
    allocatedAt: "2026-11-21T18:00:00.000Z",
  };
}

describe("vendor offers less the rooms other waves hold since the search", () => {
  it("takes each row's rooms from the same hotel at the same vendor, whichever URN of the hotel the row names", () => {
    const a = vendorOffer("vendor-a", "a1", 10_000, "USD", "urn:hotel:vendor-a.1");
    const b = vendorOffer("vendor-b", "b1", 11_000, "USD", "urn:hotel:vendor-b.1");
    const other = vendorOffer("vendor-a", "a2", 9_000, "USD", "urn:hotel:vendor-a.2");
    const row = (rooms: number, provider: string, hotelUrn: string) => ({
      ...held(rooms),
      provider,
      providerOfferId: "from-the-same-answer",
      hotelUrn,
    });
    const offers = vendorOffersLessHeld(
      [
        { hotelUrn: "urn:hotel:vendor-a.1", offers: [a, b] },
        { hotelUrn: "urn:hotel:vendor-a.2", offers: [other] },
      ],
      [
        row(3, "vendor-a", "urn:hotel:vendor-a.1"),
        row(4, "vendor-b", "urn:hotel:vendor-b.1"),
        row(30, "vendor-a", "urn:hotel:vendor-a.2"),
      ],
    );
    expect(offers.map((o) => [o.providerOfferId, o.roomsAvailable])).toEqual([
      ["a1", 17],
      ["b1", 16],
      ["a2", 0],
    ]);
  });

  it("leaves the offers as the vendors answered when nothing is held", () => {
    const a = vendorOffer("vendor-a", "a1", 10_000, "USD", hotel.hotelUrn);
    expect(vendorOffersLessHeld([{ hotelUrn: hotel.hotelUrn, offers: [a] }], [])).toEqual([a]);
  });
});

describe("a direct contract as an offer", () => {
  it("describes the catalog hotel at the contract's rate, with the rooms other cases do not hold", () => {
    const offer = contractOffer(contract, hotel, [held(3), held(2), held(4, "urn:contract:other")]);
    expect(offer).toMatchObject({
      hotelUrn: hotel.hotelUrn,
      provider: DIRECT_CONTRACT_PROVIDER,
      providerOfferId: contract.urn,
      stars: 4,
      amenities: ["AIRPORT_SHUTTLE"],
      nightlyRate: { amountMinor: 9_000, currency: "USD" },
      roomsAvailable: 5,
      payments: ["GUARANTEE"],
      isDirectContract: true,
    });
    expect(contractOffer(contract, hotel, [held(12)]).roomsAvailable).toBe(0);
  });

  it("carries the cheapest vendor rate of the same hotel as its market rate, and the wave records the saving", () => {
    const vendors = [
      // 120 EUR = 150 USD and 60 GBP = 120 USD: vendor-c is the market.
      vendorOffer("vendor-b", "B-1", 12_000, "EUR", "urn:hotel:vendor-b.h1"),
      vendorOffer("vendor-c", "C-1", 6_000, "GBP", hotel.hotelUrn),
      {
        ...vendorOffer("vendor-a", "A-9", 5_000, "USD", "urn:hotel:GP9999999"),
        name: "Budget Nest",
        lat: 40.7,
        stars: 2,
      },
    ];
    const offers = waveOffers(vendors, [contractOffer(contract, hotel, [])], {
      airport: AIRPORT,
      currency: "USD",
      rates: RATES,
    });
    const linden = offers.hotels.find((h) => h.hotelUrn === hotel.hotelUrn)!;
    expect(linden.offers.map((o) => [o.provider, o.convertedNightlyRate?.amountMinor])).toEqual([
      [DIRECT_CONTRACT_PROVIDER, 9_000],
      ["vendor-c", 12_000],
      ["vendor-b", 15_000],
    ]);
    expect(linden.offers[0]!.marketNightlyRate).toEqual({ amountMinor: 12_000, currency: "USD" });
    expect(offers.hotels).toHaveLength(2);

    const plan = planWave({
      groups: [{ groupId: "G1", rooms: 2, nights: 3, tier: "ECONOMY" }],
      offers: offers.offers,
      policy: { constraints: { minStars: 4 }, allocationWeights: { cost: 1, distance: 0, consolidation: 0 } },
      airport: AIRPORT,
      currency: "USD",
      rates: RATES,
    });
    expect(plan.allocations).toMatchObject([
      { groupId: "G1", provider: DIRECT_CONTRACT_PROVIDER, providerOfferId: contract.urn },
    ]);
    // (120 - 90) USD x 2 rooms x 3 nights.
    expect(plan.savingsVsMarket).toEqual({ amountMinor: 18_000, currency: "USD" });
  });

  it("has no market rate where no vendor sells the hotel", () => {
    const offers = waveOffers([], [contractOffer(contract, hotel, [])], {
      airport: AIRPORT,
      currency: "USD",
      rates: RATES,
    });
    expect(offers.offers[0]!.marketNightlyRate).toBeUndefined();
    expect(offers.hotels[0]!.offers[0]!.marketNightlyRate).toBeNull();
  });
});
