import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { simulatorsOf } from "../support/container.js";
import type { SimulatedVendorId } from "../../services/vendor-sim/catalog.js";
import { ManualClock } from "../../src/runtime/clock.js";
import { type TestPlatform, startTestPlatform } from "../support/platform.js";
import { json } from "../support/responses.js";

/**
 * The hotel routes over HTTP on a platform whose clock only moves when the test says so, so the
 * 2 s time-box is measured on that clock, not on the machine's.
 */
let t: TestPlatform;
let clock: ManualClock;
const tokens: Record<string, string> = {};
const token = async (who: string) => {
  tokens[who] ??= await t.operatorToken(who);
  return tokens[who]!;
};
const simulators = () => simulatorsOf(t.platform);

beforeAll(async () => {
  clock = new ManualClock(Date.now());
  t = await startTestPlatform({ clock });
});
afterAll(async () => {
  await t.close();
});

/** Each search asks for other nights, so no test reads another's cached answer. */
let nights = 0;
function stay(): { checkIn: string; checkOut: string } {
  const day = (offset: number) => new Date(Date.UTC(2026, 9, 1 + offset)).toISOString().slice(0, 10);
  nights += 2;
  return { checkIn: day(nights), checkOut: day(nights + 1) };
}

/** Moves the platform's clock in small steps, letting HTTP and vendor work run in between. */
async function drive(
  pending: Promise<Response>,
  limitMs: number,
): Promise<{ response: Response; elapsedMs: number }> {
  const started = clock.now();
  let response: Response | undefined;
  void pending.then((r) => {
    response = r;
  });
  while (!response && clock.now() - started < limitMs) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    await clock.advance(50);
  }
  if (!response) throw new Error(`no answer within ${limitMs} ms of the platform's clock`);
  return { response, elapsedMs: clock.now() - started };
}

describe("POST /v1/hotels/search", () => {
  it("answers at the 2 s time-box with what arrived, naming the vendor that did not answer", async () => {
    const slow: SimulatedVendorId = "vendor-c";
    simulators().byId[slow].configureFaults({ latency: { fixedMs: 5_000, jitterMs: 0 } });
    try {
      const pending = t.call("POST", "/v1/hotels/search", await token("operator@zx.demo"), {
        airport: "JFK",
        ...stay(),
        rooms: 1,
      });
      const { response, elapsedMs } = await drive(pending, 10_000);
      const result = await json(response, 200);
      expect(elapsedMs).toBeGreaterThanOrEqual(2_000);
      expect(elapsedMs).toBeLessThan(5_000);
      expect(result.vendorsAnswered).toEqual(["vendor-a", "vendor-b"]);
      expect(result.vendorsMissing).toEqual([{ vendor: slow, reason: "timeout" }]);
      const providers = new Set(result.hotels.flatMap((h: any) => h.offers.map((o: any) => o.provider)));
      expect(providers).toEqual(new Set(["vendor-a", "vendor-b"]));
    } finally {
      simulators().byId[slow].configureFaults({ latency: { fixedMs: 0, jitterMs: 0 } });
      await clock.advance(10_000);
    }
  });

  it("lists each physical hotel once, with every vendor's offer for it, nearest facts included", async () => {
    const result = await json(
      await t.call("POST", "/v1/hotels/search", await token("operator@zx.demo"), {
        airport: "JFK",
        ...stay(),
        rooms: 1,
        tier: "ECONOMY",
      }),
      200,
    );
    expect(result.vendorsAnswered).toEqual(["vendor-a", "vendor-b", "vendor-c"]);
    expect(result.tier).toBe("ECONOMY");
    const sims = simulators();
    const catalog = sims.catalog.atAirport("JFK");
    expect(result.hotels).toHaveLength(catalog.length);
    expect(new Set(result.hotels.map((h: any) => h.hotelUrn)).size).toBe(catalog.length);
    for (const hotel of catalog) {
      const matches = result.hotels.filter((h: any) =>
        h.offers.some(
          (o: any) => o.providerHotelId === sims.byId[o.provider as SimulatedVendorId].hotelId(hotel),
        ),
      );
      expect(matches, hotel.key).toHaveLength(1);
      expect(matches[0].offers.map((o: any) => o.provider).sort(), hotel.key).toEqual(
        [...hotel.vendors].sort(),
      );
      expect(matches[0].distanceKm, hotel.key).toBeCloseTo(hotel.distanceKm, 0);
    }
    expect(result.hotels.some((h: any) => new Set(h.offers.map((o: any) => o.provider)).size === 3)).toBe(
      true,
    );
  });

  it("reuses the cached answer until the airport's cache is invalidated", async () => {
    const request = { airport: "BOS", ...stay(), rooms: 2 };
    const operator = await token("operator@zx.demo");
    expect((await json(await t.call("POST", "/v1/hotels/search", operator, request), 200)).fromCache).toBe(
      false,
    );
    expect((await json(await t.call("POST", "/v1/hotels/search", operator, request), 200)).fromCache).toBe(
      true,
    );

    const dropped = await json(
      await t.call("POST", "/hotels/cache/invalidate?airport=BOS", await token("supervisor@zx.demo")),
      200,
    );
    expect(dropped.airport).toBe("BOS");
    expect(dropped.dropped).toBeGreaterThanOrEqual(1);
    expect((await json(await t.call("POST", "/v1/hotels/search", operator, request), 200)).fromCache).toBe(
      false,
    );
  });

  it("searches only the airline's airports, and an airport-scoped operator only its own", async () => {
    const request = { ...stay(), rooms: 1 };
    const refused = await json(
      await t.call("POST", "/v1/hotels/search", await token("supervisor@zx.demo"), {
        ...request,
        airport: "LHR",
      }),
      422,
    );
    expect(refused.type).toMatch(/airport-not-served$/);
    await json(
      await t.call("POST", "/v1/hotels/search", await token("operator.jfk@zx.demo"), {
        ...request,
        airport: "BOS",
      }),
      403,
    );
    const own = await json(
      await t.call("POST", "/v1/hotels/search", await token("operator.lhr@vq.demo"), {
        ...request,
        airport: "LHR",
      }),
      200,
    );
    expect(own.hotels.length).toBeGreaterThan(0);
  });

  it("refuses callers without an operator role", async () => {
    const request = { airport: "JFK", ...stay(), rooms: 1 };
    await json(await t.call("POST", "/v1/hotels/search", await token("finance@zx.demo"), request), 403);
    await json(await t.call("POST", "/v1/hotels/search", undefined, request), 401);
    await json(await t.call("POST", "/v1/hotels/search", await t.partnerToken("skyhub-zx"), request), 401);
  });

  it.each([
    ["no airport", { checkIn: "2026-12-01", checkOut: "2026-12-02", rooms: 1 }, "/airport"],
    [
      "a lower-case airport",
      { airport: "jfk", checkIn: "2026-12-01", checkOut: "2026-12-02", rooms: 1 },
      "/airport",
    ],
    [
      "a check-in that is no date",
      { airport: "JFK", checkIn: "tomorrow", checkOut: "2026-12-02", rooms: 1 },
      "/checkIn",
    ],
    ["zero rooms", { airport: "JFK", checkIn: "2026-12-01", checkOut: "2026-12-02", rooms: 0 }, "/rooms"],
    [
      "an unknown tier",
      { airport: "JFK", checkIn: "2026-12-01", checkOut: "2026-12-02", rooms: 1, tier: "GOLD" },
      "/tier",
    ],
    [
      "an unknown field",
      { airport: "JFK", checkIn: "2026-12-01", checkOut: "2026-12-02", rooms: 1, x: 1 },
      "/x",
    ],
  ])("refuses %s with a field error", async (_, request, field) => {
    const problem = await json(
      await t.call("POST", "/v1/hotels/search", await token("operator@zx.demo"), request),
      400,
    );
    expect(problem.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it("refuses a check-out that is not after the check-in", async () => {
    const problem = await json(
      await t.call("POST", "/v1/hotels/search", await token("operator@zx.demo"), {
        airport: "JFK",
        checkIn: "2026-12-02",
        checkOut: "2026-12-02",
        rooms: 1,
      }),
      400,
    );
    expect(problem.detail).toMatch(/checkOut must be after checkIn/);
  });
});

describe("POST /hotels/cache/invalidate", () => {
  it("is for supervisors, on the airline's airports", async () => {
    await json(
      await t.call("POST", "/hotels/cache/invalidate?airport=JFK", await token("operator@zx.demo")),
      403,
    );
    await json(
      await t.call("POST", "/hotels/cache/invalidate?airport=LHR", await token("supervisor@zx.demo")),
      422,
    );
    await json(
      await t.call("POST", "/hotels/cache/invalidate?airport=JFK", await token("supervisor@vq.demo")),
      422,
    );
    const missing = await json(
      await t.call("POST", "/hotels/cache/invalidate", await token("supervisor@zx.demo")),
      400,
    );
    expect(missing.errors.map((e: { field: string }) => e.field)).toContain("/airport");
  });
});

describe("GET /v1/hotels/list", () => {
  it("pages through the catalog of the airline's airports, nearest first", async () => {
    const operator = await token("operator@zx.demo");
    const first = await json(await t.call("GET", "/v1/hotels/list?limit=5", operator), 200);
    expect(first.items).toHaveLength(5);
    expect(first.hasMore).toBe(true);
    const second = await json(
      await t.call("GET", `/v1/hotels/list?limit=5&cursor=${encodeURIComponent(first.nextCursor)}`, operator),
      200,
    );
    const urns = [...first.items, ...second.items].map((h: any) => h.hotelUrn);
    expect(new Set(urns).size).toBe(10);
    const distances = first.items.map((h: any) => h.distanceKm);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    expect(new Set(first.items.map((h: any) => h.airport)).size).toBeGreaterThanOrEqual(1);
    for (const hotel of first.items) expect(["JFK", "BOS", "ORD"]).toContain(hotel.airport);
  });

  it("filters by airport; an airport-scoped operator sees its airport only", async () => {
    const bos = await json(
      await t.call("GET", "/v1/hotels/list?airport=BOS&limit=200", await token("operator@zx.demo")),
      200,
    );
    expect(bos.items.length).toBe(simulators().catalog.atAirport("BOS").length);
    expect(bos.items.every((h: any) => h.airport === "BOS")).toBe(true);

    const scoped = await json(
      await t.call("GET", "/v1/hotels/list?limit=200", await token("operator.jfk@zx.demo")),
      200,
    );
    expect(scoped.items.every((h: any) => h.airport === "JFK")).toBe(true);
    await json(await t.call("GET", "/v1/hotels/list?airport=BOS", await token("operator.jfk@zx.demo")), 403);
    await json(await t.call("GET", "/v1/hotels/list?airport=LHR", await token("operator@zx.demo")), 422);
    const vq = await json(
      await t.call("GET", "/v1/hotels/list?limit=200", await token("operator@vq.demo")),
      200,
    );
    expect(new Set(vq.items.map((h: any) => h.airport))).toEqual(new Set(["LHR", "MAD", "GRU"]));
  });

  it("refuses bad queries and callers without an operator role", async () => {
    await json(await t.call("GET", "/v1/hotels/list", await token("finance@zx.demo")), 403);
    await json(await t.call("GET", "/v1/hotels/list?airport=boston", await token("operator@zx.demo")), 400);
    await json(await t.call("GET", "/v1/hotels/list?limit=0", await token("operator@zx.demo")), 400);
  });
});

describe("GET /v1/airports/search", () => {
  it("finds the airline's airports by code, city or name, with coordinates", async () => {
    const chicago = await json(
      await t.call("GET", "/v1/airports/search?q=chicago", await token("operator@zx.demo")),
      200,
    );
    expect(chicago.items).toEqual([
      expect.objectContaining({ code: "ORD", city: "Chicago", lat: 41.9742, lon: -87.9073 }),
    ]);
    const all = await json(await t.call("GET", "/v1/airports/search", await token("operator@zx.demo")), 200);
    expect(all.items.map((a: any) => a.code)).toEqual(["JFK", "BOS", "ORD"]);
    const sao = await json(
      await t.call("GET", "/v1/airports/search?q=sao%20paulo", await token("operator@vq.demo")),
      200,
    );
    expect(sao.items.map((a: any) => a.code)).toEqual(["GRU"]);
  });

  it("never shows another airline's airports, and refuses non-operators", async () => {
    const other = await json(
      await t.call("GET", "/v1/airports/search?q=LHR", await token("operator@zx.demo")),
      200,
    );
    expect(other.items).toEqual([]);
    await json(await t.call("GET", "/v1/airports/search?q=JFK", await token("finance@zx.demo")), 403);
    await json(await t.call("GET", "/v1/airports/search?q=", await token("operator@zx.demo")), 400);
  });
});
