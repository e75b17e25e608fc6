import { describe, expect, it } from "vitest";
import type { HotelOffer } from "../../src/domain/allocation/offer.js";
import { verdictsAbout } from "../../src/domain/allocation/ranking.js";
import { planWave, type WaveInput } from "../../src/domain/allocation/wave.js";
import { DomainError } from "../../src/domain/domain-error.js";
import { offersAround } from "./hotel-offer-fixture.js";

const AIRPORT = { lat: 48.3538, lon: 11.7861 };
const { north, offer } = offersAround(AIRPORT, { provider: "hotelbeds", currency: "EUR" });

const offers: HotelOffer[] = [
  offer("hb-a", {
    name: "Airport Inn",
    address: "1 Airport Rd.",
    nightlyRate: { amountMinor: 10000, currency: "EUR" },
    roomsAvailable: 4,
  }),
  offer("ex-a", {
    provider: "expedia",
    name: "AIRPORT INN",
    address: "1, Airport Road",
    nightlyRate: { amountMinor: 9500, currency: "EUR" },
    roomsAvailable: 3,
  }),
  offer("dc-b", {
    provider: "direct",
    ...north(5),
    nightlyRate: { amountMinor: 8000, currency: "EUR" },
    marketNightlyRate: { amountMinor: 11000, currency: "EUR" },
    isDirectContract: true,
    roomsAvailable: 2,
  }),
  offer("us-c", { ...north(8), nightlyRate: { amountMinor: 12500, currency: "USD" }, roomsAvailable: 10 }),
  offer("far-d", { ...north(60), nightlyRate: { amountMinor: 5000, currency: "EUR" } }),
  offer("card-e", { ...north(2), payments: ["CARD"] }),
  offer("thb-f", { ...north(4), nightlyRate: { amountMinor: 300000, currency: "THB" } }),
];

const wave: WaveInput = {
  groups: [
    { groupId: "G1", rooms: 2, nights: 1, tier: "ECONOMY" },
    { groupId: "G2", rooms: 1, nights: 3, tier: "BUSINESS" },
    { groupId: "G3", rooms: 12, nights: 1, tier: "ECONOMY" },
    { groupId: "G4", rooms: 1, nights: 1, tier: "CREW" },
    { groupId: "G5", rooms: 3, nights: 1, tier: "ECONOMY" },
  ],
  offers,
  policy: {
    tiers: ["ECONOMY", "BUSINESS"],
    constraints: {
      minStars: 3,
      maxDistanceKm: 30,
      maxNightlyRate: 150,
      requiredAmenities: ["24H_RECEPTION"],
      acceptedPayments: ["GUARANTEE"],
    },
  },
  airport: AIRPORT,
  currency: "EUR",
  rates: { base: "EUR", perBase: { USD: 1.25 } },
};

describe("planWave", () => {
  const plan = planWave(wave);

  it("assigns over the whole wave: the 3-night stay takes the cheapest hotel, each group in one hotel", () => {
    expect(
      plan.allocations.map((a) => [a.groupId, a.hotelUrn, a.providerOfferId, a.rooms, a.nights]),
    ).toEqual([
      ["G1", "urn:hotel:us-c", "offer-us-c", 2, 1],
      ["G2", "urn:hotel:dc-b", "offer-dc-b", 1, 3],
      ["G5", "urn:hotel:ex-a", "offer-ex-a", 3, 1],
    ]);
  });

  it("books a merged hotel through its cheapest compliant offer, keeping the others as alternatives", () => {
    const atA = plan.allocations.find((a) => a.groupId === "G5")!;
    expect(atA.alternativeOfferIds).toEqual(["offer-hb-a"]);
  });

  it("states costs in the policy's currency, converted once per night, and records direct-contract savings", () => {
    expect(plan.allocations.map((a) => a.cost)).toEqual([
      { amountMinor: 20000, currency: "EUR" },
      { amountMinor: 24000, currency: "EUR" },
      { amountMinor: 28500, currency: "EUR" },
    ]);
    expect(plan.allocations.map((a) => a.savingsVsMarket)).toEqual([
      null,
      { amountMinor: 9000, currency: "EUR" },
      null,
    ]);
    expect(plan.totalCost).toEqual({ amountMinor: 72500, currency: "EUR" });
    expect(plan.savingsVsMarket).toEqual({ amountMinor: 9000, currency: "EUR" });
  });

  it("says why each group it could not house was left out", () => {
    expect(plan.unallocated).toEqual([
      { groupId: "G4", reason: "tier-not-covered" },
      { groupId: "G3", reason: "no-hotel-with-enough-rooms" },
    ]);
  });

  it("records every offer that does not take part, with its reasons", () => {
    const offerLevel = plan.rankingInputs.filter((r) => r.classId === null);
    expect(offerLevel.map((r) => [r.providerOfferId, r.outcome, r.reasons])).toEqual([
      ["offer-hb-a", "discarded", ["duplicate-of:offer-ex-a"]],
      ["offer-far-d", "discarded", ["too-far"]],
      ["offer-card-e", "discarded", ["payment-not-accepted"]],
      ["offer-thb-f", "discarded", ["no-exchange-rate:THB"]],
    ]);
    expect(offerLevel.find((r) => r.providerOfferId === "offer-far-d")!.raw.distanceKm).toBeCloseTo(60, 1);
  });

  it("records every group x hotel candidate with raw and weighted scores and why it was selected or discarded", () => {
    const rows = plan.rankingInputs.filter((r) => r.classId !== null);
    const verdicts = (groupId: string, hotel: string) =>
      verdictsAbout(rows, plan.rankingClasses, [groupId]).filter((r) => r.hotelUrn === `urn:hotel:${hotel}`);
    for (const groupId of ["G1", "G2", "G3", "G5"]) {
      for (const hotel of ["ex-a", "dc-b", "us-c"]) expect(verdicts(groupId, hotel), groupId).toHaveLength(1);
    }
    const verdict = (groupId: string, hotel: string) => verdicts(groupId, hotel)[0]!;
    expect(verdict("G2", "dc-b")).toMatchObject({ outcome: "selected", reasons: ["assigned"] });
    expect(verdict("G1", "dc-b")).toMatchObject({ outcome: "discarded", reasons: ["hotel-full"] });
    expect(verdict("G5", "dc-b")).toMatchObject({ outcome: "discarded", reasons: ["not-enough-rooms"] });
    expect(verdict("G2", "us-c")).toMatchObject({
      outcome: "discarded",
      reasons: ["better-score-elsewhere"],
    });
    expect(verdict("G3", "us-c")).toMatchObject({ outcome: "discarded", reasons: ["not-enough-rooms"] });

    const selected = rows
      .filter((r) => r.outcome === "selected")
      .flatMap((r) => r.groupIds!.map((groupId) => [groupId, r.providerOfferId]));
    expect(selected.sort()).toEqual(plan.allocations.map((a) => [a.groupId, a.providerOfferId]).sort());

    const g2AtB = verdict("G2", "dc-b");
    expect(g2AtB.raw.cost).toEqual({ amountMinor: 24000, currency: "EUR" });
    expect(g2AtB.raw.nightlyRate).toEqual({ amountMinor: 8000, currency: "EUR" });
    expect(g2AtB.raw.distanceKm).toBeCloseTo(5, 2);
    expect(g2AtB.raw.consolidation).toBeCloseTo(2 / 18, 12);
    expect(g2AtB.normalized!.cost).toBeCloseTo(8000 / 15000, 12);
    expect(g2AtB.normalized!.distance).toBeCloseTo(5 / 30, 3);
    expect(g2AtB.weightedScore).toBeCloseTo(0.6 * (8000 / 15000) + 0.25 * (5 / 30) + 0.15 * (1 - 2 / 18), 3);
  });

  it("names a class's groups (same rooms, same nights) once, and writes one row per hotel for those placed there and one for the rest of it", () => {
    const group = (groupId: string, nights: number) => ({ groupId, rooms: 1, nights, tier: "ECONOMY" });
    const classes = planWave({
      ...wave,
      groups: [group("A", 1), group("B", 1), group("C", 1), group("D", 2)],
      offers: [
        offer("x", { nightlyRate: { amountMinor: 8000, currency: "EUR" }, roomsAvailable: 2 }),
        offer("y", { ...north(6), roomsAvailable: 5 }),
      ],
    });
    const hotelOf = new Map(classes.allocations.map((a) => [a.groupId, a.hotelUrn.slice(10)]));
    // The 2-night stay saves most in the better hotel; one 1-night group fills it.
    expect(hotelOf.get("D")).toBe("x");
    const inX = ["A", "B", "C"].filter((g) => hotelOf.get(g) === "x");
    const inY = ["A", "B", "C"].filter((g) => hotelOf.get(g) === "y");
    expect([inX.length, inY.length]).toEqual([1, 2]);
    expect(classes.rankingClasses).toEqual([
      { classId: "1x1", rooms: 1, nights: 1, groupIds: ["A", "B", "C"] },
      { classId: "1x2", rooms: 1, nights: 2, groupIds: ["D"] },
    ]);
    expect(
      classes.rankingInputs.map((r) => [
        r.classId,
        r.groupIds,
        r.hotelUrn.slice(10),
        r.raw.cost?.amountMinor,
        r.reasons[0],
      ]),
    ).toEqual([
      ["1x1", inX, "x", 8000, "assigned"],
      ["1x1", null, "x", 8000, "hotel-full"],
      ["1x1", inY, "y", 10000, "assigned"],
      ["1x1", null, "y", 10000, "better-score-elsewhere"],
      ["1x2", ["D"], "x", 16000, "assigned"],
      ["1x2", null, "y", 20000, "better-score-elsewhere"],
    ]);
    const about = (groupId: string) =>
      verdictsAbout(classes.rankingInputs, classes.rankingClasses, [groupId]).map(
        (r) => `${r.hotelUrn.slice(10)}:${r.reasons[0]}`,
      );
    expect(about(inX[0]!)).toEqual(["x:assigned", "y:better-score-elsewhere"]);
    expect(about(inY[0]!)).toEqual(["x:hotel-full", "y:assigned"]);
    expect(about("D")).toEqual(["x:assigned", "y:better-score-elsewhere"]);
  });

  it("leaves every group out as ALLOCATION_FAILED material when no offer passes the gates", () => {
    const none = planWave({ ...wave, policy: { constraints: { minStars: 5 } } });
    expect(none.allocations).toEqual([]);
    expect(new Set(none.unallocated.map((u) => u.reason))).toEqual(new Set(["no-policy-compliant-hotel"]));
    expect(none.totalCost).toEqual({ amountMinor: 0, currency: "EUR" });
  });

  it("says capacity-exhausted when the rooms went to other groups (same rooms housed either way: the shorter stay costs less)", () => {
    const tight = planWave({
      ...wave,
      groups: [
        { groupId: "X", rooms: 2, nights: 1, tier: "ECONOMY" },
        { groupId: "Y", rooms: 2, nights: 2, tier: "ECONOMY" },
      ],
      offers: [offer("only", { roomsAvailable: 3 })],
    });
    expect(tight.allocations.map((a) => a.groupId)).toEqual(["X"]);
    expect(tight.unallocated).toEqual([{ groupId: "Y", reason: "capacity-exhausted" }]);
  });

  it.each([
    { name: "a duplicate group id", groups: [wave.groups[0]!, wave.groups[0]!] },
    { name: "zero rooms", groups: [{ groupId: "Z", rooms: 0, nights: 1, tier: "ECONOMY" }] },
    { name: "half a night", groups: [{ groupId: "Z", rooms: 1, nights: 0.5, tier: "ECONOMY" }] },
  ])("refuses $name", ({ groups }) => {
    expect(() => planWave({ ...wave, groups })).toThrow(DomainError);
  });
});
