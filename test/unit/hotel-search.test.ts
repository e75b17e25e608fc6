import { beforeEach, describe, expect, it } from "vitest";
import type { SimulatedVendorId } from "../../services/vendor-sim/catalog.js";
import type { FaultSettings } from "../../services/vendor-sim/fault-injection.js";
import { createVendorSimulators, SIMULATOR_EXCHANGE_RATES } from "../../services/vendor-sim/simulators.js";
import { demoClientFor } from "../../services/vendor-sim/vendor-simulator.js";
import { HotelSearch, type HotelSearchResult } from "../../src/app/hotel-search.js";
import { DomainError } from "../../src/domain/domain-error.js";
import { ManualClock } from "../../src/runtime/clock.js";
import type { BreakerSettings } from "../../src/vendors/circuit-breaker.js";
import { inProcessTransport } from "../../src/vendors/in-process-transport.js";
import { TenantInventoryVendors, type TenantVendorSettings } from "../../src/vendors/tenant-vendors.js";

const TENANT = "urn:airline:ZX";
const QUERY = {
  tenant: TENANT,
  airport: "JFK",
  checkIn: "2026-03-10",
  checkOut: "2026-03-12",
  rooms: 1,
  tier: "STANDARD",
};
const VENDORS: SimulatedVendorId[] = ["vendor-a", "vendor-b", "vendor-c"];

let clock: ManualClock;

beforeEach(() => {
  clock = new ManualClock("2026-03-10T08:00:00Z");
});

interface SetUpOptions {
  faults?: Partial<Record<SimulatedVendorId, FaultSettings>>;
  enabled?: SimulatedVendorId[];
  breaker?: BreakerSettings;
}

function setUp(options: SetUpOptions = {}) {
  const sims = createVendorSimulators({
    seed: 42,
    clock,
    ...(options.faults ? { faults: options.faults } : {}),
  });
  const searchesReaching: string[] = [];
  const settings: TenantVendorSettings = {
    mode: "mock",
    accounts: VENDORS.map((vendor) => ({
      vendor,
      enabled: (options.enabled ?? VENDORS).includes(vendor),
      credentials: demoClientFor(vendor),
    })),
  };
  const vendors = new TenantInventoryVendors({
    clock,
    settingsOf: () => settings,
    mockTransportOf: (vendor) => {
      const sim = sims.byId[vendor as SimulatedVendorId];
      return {
        send(request, signal) {
          if (request.path !== sim.tokenPath) searchesReaching.push(vendor);
          return inProcessTransport(sim).send(request, signal);
        },
      };
    },
    client: { random: () => 0.5, ...(options.breaker ? { breaker: options.breaker } : {}) },
  });
  const search = new HotelSearch(vendors, clock, { exchangeRates: SIMULATOR_EXCHANGE_RATES });
  return { sims, search, searchesReaching };
}

function providersOf(result: HotelSearchResult): Set<string> {
  return new Set(result.hotels.flatMap((hotel) => hotel.offers.map((offer) => offer.provider)));
}

describe("scatter-gather", () => {
  it("asks every enabled vendor and dedups each physical hotel into one, with every vendor's offer", async () => {
    const { sims, search } = setUp();
    const result = await search.searchHotels(QUERY);
    expect(result.vendorsAnswered).toEqual(VENDORS);
    expect(result.vendorsMissing).toEqual([]);
    expect(result.fromCache).toBe(false);

    // Every catalog hotel at the airport appears exactly once, with one offer per vendor listing it.
    const catalog = sims.catalog.atAirport("JFK");
    expect(result.hotels).toHaveLength(catalog.length);
    for (const hotel of catalog) {
      const matches = result.hotels.filter((h) =>
        h.offers.some((o) => o.providerHotelId === sims.byId[o.provider as SimulatedVendorId].hotelId(hotel)),
      );
      expect(matches, hotel.key).toHaveLength(1);
      expect(matches[0]!.offers.map((o) => o.provider).sort(), hotel.key).toEqual([...hotel.vendors].sort());
    }
    const everywhere = result.hotels.filter((h) => h.offers.length === 3);
    expect(everywhere.length).toBeGreaterThan(3);
  });

  it("ranks a hotel's offers by price converted to one currency", async () => {
    const { search } = setUp();
    const result = await search.searchHotels(QUERY);
    const perUsd = (o: { nightlyRate: { amountMinor: number; currency: string } }) =>
      o.nightlyRate.amountMinor /
      (o.nightlyRate.currency === "USD" ? 1 : SIMULATOR_EXCHANGE_RATES.perBase[o.nightlyRate.currency]!);
    for (const hotel of result.hotels) {
      const prices = hotel.offers.map(perUsd);
      expect(prices).toEqual([...prices].sort((a, b) => a - b));
    }
  });

  it("only asks the vendors the tenant enabled", async () => {
    const { search, searchesReaching } = setUp({ enabled: ["vendor-b"] });
    const result = await search.searchHotels(QUERY);
    expect(result.vendorsAnswered).toEqual(["vendor-b"]);
    expect(new Set(searchesReaching)).toEqual(new Set(["vendor-b"]));
  });

  it("gives the same answer for the same seed", async () => {
    const first = await setUp().search.searchHotels(QUERY);
    const second = await setUp().search.searchHotels(QUERY);
    expect(second).toEqual(first);
  });
});

describe("2 s time-box", () => {
  it("answers at 2 s with what arrived and names the slow vendor as missing", async () => {
    const { search } = setUp({
      faults: {
        "vendor-a": { latency: { fixedMs: 100, jitterMs: 50 } },
        "vendor-b": { latency: { fixedMs: 300, jitterMs: 0 } },
        "vendor-c": { latency: { fixedMs: 5_000, jitterMs: 0 } },
      },
    });
    let result: HotelSearchResult | undefined;
    void search.searchHotels(QUERY).then((r) => {
      result = r;
    });
    await clock.advance(1_999);
    expect(result).toBeUndefined();
    await clock.advance(1);
    expect(result).toBeDefined();
    expect(result!.vendorsAnswered).toEqual(["vendor-a", "vendor-b"]);
    expect(result!.vendorsMissing).toEqual([{ vendor: "vendor-c", reason: "timeout" }]);
    expect(providersOf(result!)).toEqual(new Set(["vendor-a", "vendor-b"]));
    expect(result!.hotels.length).toBeGreaterThan(10);
  });

  it("does not wait for the time-box when every vendor has answered", async () => {
    const { search } = setUp({ faults: { "vendor-a": { latency: { fixedMs: 200, jitterMs: 0 } } } });
    let result: HotelSearchResult | undefined;
    void search.searchHotels(QUERY).then((r) => {
      result = r;
    });
    await clock.advance(400);
    expect(result?.vendorsAnswered).toEqual(VENDORS);
  });
});

describe("vendors that fail", () => {
  it("reports a vendor whose retries ran out as error, with its code, and keeps the others' offers", async () => {
    const { sims, search } = setUp();
    sims.byId["vendor-b"].failNext("server-error", 3);
    const pending = search.searchHotels(QUERY);
    await clock.advance(1_000);
    const result = await pending;
    expect(result.vendorsMissing).toEqual([
      { vendor: "vendor-b", reason: "error", vendorErrorCode: "INTERNAL_ERROR" },
    ]);
    expect(providersOf(result)).toEqual(new Set(["vendor-a", "vendor-c"]));
  });

  it("reports a vendor behind an open circuit as circuit-open without calling it", async () => {
    const { sims, search, searchesReaching } = setUp({
      breaker: { failureThreshold: 2, coolDownMs: 30_000 },
    });
    sims.byId["vendor-a"].failNext("unavailable", 6);
    const first = search.searchHotels(QUERY);
    await clock.advance(2_000);
    expect((await first).vendorsMissing).toEqual([{ vendor: "vendor-a", reason: "circuit-open" }]);

    search.invalidate("JFK");
    const calls = searchesReaching.filter((v) => v === "vendor-a").length;
    const second = await search.searchHotels(QUERY);
    expect(second.vendorsMissing).toEqual([{ vendor: "vendor-a", reason: "circuit-open" }]);
    expect(searchesReaching.filter((v) => v === "vendor-a").length).toBe(calls);
  });

  it("refuses a malformed query", async () => {
    const { search } = setUp();
    for (const bad of [
      { ...QUERY, airport: "J" },
      { ...QUERY, checkOut: QUERY.checkIn },
      { ...QUERY, checkIn: "10/03/2026" },
      { ...QUERY, rooms: 0 },
    ]) {
      await expect(search.searchHotels(bad)).rejects.toBeInstanceOf(DomainError);
    }
  });
});

describe("offer cache", () => {
  it("reuses an answer per tenant, airport, dates and rooms until its TTL or an invalidation", async () => {
    const { search, searchesReaching } = setUp();
    const first = await search.searchHotels(QUERY);
    const asked = searchesReaching.length;

    const again = await search.searchHotels({ ...QUERY, tier: "PREMIUM" });
    expect(again.fromCache).toBe(true);
    expect(again.hotels).toEqual(first.hotels);
    expect(searchesReaching.length).toBe(asked);

    await search.searchHotels({ ...QUERY, rooms: 2 });
    await search.searchHotels({ ...QUERY, tenant: "urn:airline:VQ" });
    expect(searchesReaching.length).toBe(asked * 3);

    expect(search.invalidate("jfk")).toBe(3);
    expect((await search.searchHotels(QUERY)).fromCache).toBe(false);
    expect(searchesReaching.length).toBe(asked * 4);

    await clock.advance(5 * 60_000 - 1);
    expect((await search.searchHotels(QUERY)).fromCache).toBe(true);
    await clock.advance(1);
    expect((await search.searchHotels(QUERY)).fromCache).toBe(false);
  });

  it("asks the vendors once for searches of the same key made while one is under way", async () => {
    const { search, searchesReaching } = setUp();
    const [first, second] = await Promise.all([search.searchHotels(QUERY), search.searchHotels(QUERY)]);
    const asked = searchesReaching.length;
    expect(first.fromCache).toBe(false);
    expect(second.fromCache).toBe(true);
    expect(second.hotels).toEqual(first.hotels);

    search.invalidate("JFK");
    await search.searchHotels(QUERY);
    expect(searchesReaching.length).toBe(asked * 2);
  });

  it("keeps an answer missing a vendor only briefly, so the vendor is asked again soon", async () => {
    const { sims, search } = setUp();
    sims.byId["vendor-c"].failNext("rate-limited", 3);
    const partial = search.searchHotels(QUERY);
    await clock.advance(2_000);
    expect((await partial).vendorsMissing).toHaveLength(1);
    await clock.advance(28_000 - 1);
    expect((await search.searchHotels(QUERY)).fromCache).toBe(true);
    await clock.advance(1);
    const fresh = await search.searchHotels(QUERY);
    expect(fresh.fromCache).toBe(false);
    expect(fresh.vendorsMissing).toEqual([]);
  });
});
