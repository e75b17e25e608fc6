import { afterEach, describe, expect, it } from "vitest";
import { threadedWavePlanner } from "../../services/hotels/threaded-wave-planner.js";
import { planWave, type WaveInput } from "../../src/domain/allocation/wave.js";
import { DomainError } from "../../src/domain/domain-error.js";
import { offersAround } from "./hotel-offer-fixture.js";

const AIRPORT = { lat: 48.3538, lon: 11.7861 };
const { north, offer } = offersAround(AIRPORT, { provider: "hotelbeds", currency: "EUR" });

const input: WaveInput = {
  groups: [
    { groupId: "G1", rooms: 2, nights: 1, tier: "ECONOMY" },
    { groupId: "G2", rooms: 1, nights: 3, tier: "BUSINESS" },
    { groupId: "G3", rooms: 12, nights: 1, tier: "ECONOMY" },
    { groupId: "G4", rooms: 1, nights: 1, tier: "CREW" },
    { groupId: "G5", rooms: 3, nights: 1, tier: "ECONOMY" },
  ],
  offers: [
    offer("hb-a", { roomsAvailable: 4 }),
    offer("ex-a", { provider: "expedia", nightlyRate: { amountMinor: 9500, currency: "EUR" } }),
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
    offer("thb-f", { ...north(4), nightlyRate: { amountMinor: 300000, currency: "THB" } }),
  ],
  policy: {
    tiers: ["ECONOMY", "BUSINESS"],
    constraints: { minStars: 3, maxDistanceKm: 30, maxNightlyRate: 150, acceptedPayments: ["GUARANTEE"] },
  },
  airport: AIRPORT,
  currency: "EUR",
  rates: { base: "EUR", perBase: { USD: 1.25 } },
};

describe("threadedWavePlanner", () => {
  const planner = threadedWavePlanner();
  afterEach(() => planner.close());

  it("plans on its thread what planWave plans in process", async () => {
    const planned = await planner.plan(input);
    expect(planned).toEqual(planWave(input));
    expect(planned.allocations.length).toBeGreaterThan(0);
    expect(planned.unallocated.length).toBeGreaterThan(0);
  });

  it("answers every plan queued to it with its own plan", async () => {
    const inputs = [1, 2, 3].map((rooms) => ({
      ...input,
      groups: [{ groupId: `G${rooms}`, rooms, nights: 1, tier: "ECONOMY" }],
    }));
    const planned = await Promise.all(inputs.map((each) => planner.plan(each)));
    expect(planned).toEqual(inputs.map((each) => planWave(each)));
  });

  it("passes the domain's refusal on as the DomainError it is", async () => {
    const twice = { ...input, groups: [input.groups[0]!, input.groups[0]!] };
    const refused = await planner.plan(twice).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ kind: "invalid", code: "invalid-wave-group" });
  });

  it("fails the plans in flight when its thread stops, and plans on a fresh thread after", async () => {
    const inFlight = planner.plan(input);
    await planner.close();
    await expect(inFlight).rejects.toThrow(/thread stopped|closed/);
    expect(await planner.plan(input)).toEqual(planWave(input));
  });
});
