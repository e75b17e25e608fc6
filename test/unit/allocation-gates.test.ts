import { describe, expect, it } from "vitest";
import { discardReasons, gatesFor, type OfferFacts } from "../../src/domain/allocation/gates.js";
import type { HotelOffer } from "../../src/domain/allocation/offer.js";
import type { PolicyConstraints } from "../../src/domain/policy/policy.js";

const offer: HotelOffer = {
  hotelUrn: "urn:hotel:h1",
  provider: "hotelbeds",
  providerHotelId: "hb-1",
  providerOfferId: "o-1",
  name: "Airport Hotel",
  address: "1 Airport Road",
  lat: 48.36,
  lon: 11.79,
  stars: 4,
  chainId: "chain-a",
  amenities: ["24H_RECEPTION", "AIRPORT_SHUTTLE"],
  nightlyRate: { amountMinor: 12000, currency: "EUR" },
  roomsAvailable: 20,
  payments: ["GUARANTEE"],
  isDirectContract: false,
};
const facts: OfferFacts = { distanceKm: 8, nightlyRate: { amountMinor: 12000, currency: "EUR" } };
const policy: PolicyConstraints = {
  minStars: 3,
  maxDistanceKm: 10,
  maxNightlyRate: 150,
  requiredAmenities: ["24H_RECEPTION", "AIRPORT_SHUTTLE"],
  excludedChains: ["chain-x"],
  acceptedPayments: ["GUARANTEE"],
  allowProviders: ["hotelbeds", "expedia"],
};

describe("gates", () => {
  it.each([
    { name: "a compliant offer", change: {}, factChange: {}, reasons: [] },
    {
      name: "exactly at the distance and rate ceilings",
      change: {},
      factChange: { distanceKm: 10, nightlyRate: { amountMinor: 15000, currency: "EUR" } },
      reasons: [],
    },
    {
      name: "a provider outside allowProviders",
      change: { provider: "agoda" },
      factChange: {},
      reasons: ["provider-not-allowed"],
    },
    {
      name: "a rate the table cannot convert",
      change: { nightlyRate: { amountMinor: 100, currency: "THB" } },
      factChange: { nightlyRate: undefined },
      reasons: ["no-exchange-rate:THB"],
    },
    { name: "no room left", change: { roomsAvailable: 0 }, factChange: {}, reasons: ["no-rooms"] },
    { name: "an unrated property", change: { stars: null }, factChange: {}, reasons: ["unrated"] },
    { name: "fewer stars than minStars", change: { stars: 2 }, factChange: {}, reasons: ["below-min-stars"] },
    {
      name: "farther than maxDistanceKm",
      change: {},
      factChange: { distanceKm: 10.01 },
      reasons: ["too-far"],
    },
    {
      name: "a converted rate over maxNightlyRate",
      change: {},
      factChange: { nightlyRate: { amountMinor: 15001, currency: "EUR" } },
      reasons: ["over-max-rate"],
    },
    {
      name: "a missing required amenity",
      change: { amenities: ["24H_RECEPTION"] },
      factChange: {},
      reasons: ["missing-amenity:AIRPORT_SHUTTLE"],
    },
    {
      name: "an excluded chain",
      change: { chainId: "chain-x" },
      factChange: {},
      reasons: ["excluded-chain"],
    },
    {
      name: "a payment the policy does not accept",
      change: { payments: ["CARD"] },
      factChange: {},
      reasons: ["payment-not-accepted"],
    },
  ] as const)("$name -> $reasons", ({ change, factChange, reasons }) => {
    const gates = gatesFor(policy, "EUR");
    expect(discardReasons({ ...offer, ...change }, { ...facts, ...factChange }, gates)).toEqual(reasons);
  });

  it("reports every failing gate, in gate order", () => {
    const gates = gatesFor(policy, "EUR");
    const bad = {
      ...offer,
      provider: "agoda",
      stars: null,
      amenities: [],
      chainId: "chain-x",
      payments: ["CARD" as const],
    };
    expect(discardReasons(bad, { ...facts, distanceKm: 30 }, gates)).toEqual([
      "provider-not-allowed",
      "unrated",
      "too-far",
      "missing-amenity:24H_RECEPTION",
      "missing-amenity:AIRPORT_SHUTTLE",
      "excluded-chain",
      "payment-not-accepted",
    ]);
  });

  it("gates nothing the policy leaves out, except GUARANTEE as the default payment", () => {
    const gates = gatesFor({}, "EUR");
    const anything = { ...offer, stars: null, chainId: "chain-x", amenities: [], provider: "agoda" };
    expect(discardReasons(anything, { ...facts, distanceKm: 500 }, gates)).toEqual([]);
    expect(discardReasons({ ...anything, payments: ["CARD"] }, facts, gates)).toEqual([
      "payment-not-accepted",
    ]);
    expect(
      discardReasons(
        { ...anything, payments: ["CARD"] },
        facts,
        gatesFor({ acceptedPayments: ["CARD"] }, "EUR"),
      ),
    ).toEqual([]);
  });

  it("reads maxNightlyRate in the wave's currency's major units", () => {
    const gates = gatesFor({ maxNightlyRate: 20000 }, "JPY");
    expect(
      discardReasons(offer, { ...facts, nightlyRate: { amountMinor: 20000, currency: "JPY" } }, gates),
    ).toEqual([]);
    expect(
      discardReasons(offer, { ...facts, nightlyRate: { amountMinor: 20001, currency: "JPY" } }, gates),
    ).toEqual(["over-max-rate"]);
  });
});
