import { randomUuid } from "../../src/domain/uuid.js";
import { beforeEach, describe, expect, it } from "vitest";
import { createVendorSimulators } from "../../services/vendor-sim/simulators.js";
import { demoClientFor } from "../../services/vendor-sim/vendor-simulator.js";
import { ManualClock } from "../../src/runtime/clock.js";
import { TenantInventoryVendors } from "../../src/vendors/tenant-vendors.js";
import { TokenBucket } from "../../src/vendors/token-bucket.js";
import type { VendorTransport } from "../../src/vendors/vendor-transport.js";
import type { WireEndpoint } from "../../src/vendors/wire.js";
import { demoVendorClient } from "./vendor-client-fixture.js";

const STAY = { airport: "ORD", checkIn: "2026-03-10", checkOut: "2026-03-11", rooms: 1 };

let clock: ManualClock;

beforeEach(() => {
  clock = new ManualClock("2026-03-10T08:00:00Z");
});

/** Starts `count` takes and returns a live count of those granted so far. */
function takeMany(bucket: TokenBucket, count: number): { granted: () => number; order: number[] } {
  const order: number[] = [];
  for (let i = 0; i < count; i++) void bucket.take().then(() => order.push(i));
  return { granted: () => order.length, order };
}

describe("token bucket", () => {
  it("lets one second's worth through at once, then makes the rest wait on the clock", async () => {
    const bucket = new TokenBucket(clock, { perSecond: 10 });
    const calls = takeMany(bucket, 13);
    await clock.advance(0);
    expect(calls.granted()).toBe(10);
    expect(bucket.waiting()).toBe(3);
    await clock.advance(99);
    expect(calls.granted()).toBe(10);
    await clock.advance(1);
    expect(calls.granted()).toBe(11);
    await clock.advance(200);
    expect(calls.granted()).toBe(13);
    expect(calls.order).toEqual([...Array(13).keys()]);
  });

  it("holds a steady rate under a long burst", async () => {
    const bucket = new TokenBucket(clock, { perSecond: 5 });
    const calls = takeMany(bucket, 30);
    await clock.advance(0);
    expect(calls.granted()).toBe(5);
    await clock.advance(1_000);
    expect(calls.granted()).toBe(10);
    await clock.advance(4_000);
    expect(calls.granted()).toBe(30);
  });

  it("refills while idle, but never beyond its burst", async () => {
    const bucket = new TokenBucket(clock, { perSecond: 2, burst: 4 });
    takeMany(bucket, 4);
    await clock.advance(60_000);
    const calls = takeMany(bucket, 6);
    await clock.advance(0);
    expect(calls.granted()).toBe(4);
  });
});

describe("vendor client throttling", () => {
  function countingTransport(endpoint: WireEndpoint, seen: string[]): VendorTransport {
    return {
      send(request) {
        seen.push(request.path.split("?")[0]!);
        return endpoint.handle(request);
      },
    };
  }

  it("makes a burst of searches wait in the worker instead of reaching the vendor", async () => {
    const sims = createVendorSimulators({ seed: 3, clock });
    const seen: string[] = [];
    const client = demoVendorClient("vendor-a", countingTransport(sims.byId["vendor-a"], seen), clock, {
      limits: { inventory: 2 },
    });
    const searches = () => seen.filter((path) => path === "/v1/availability").length;
    let done = 0;
    for (let i = 0; i < 6; i++) void client.search(STAY).then(() => done++);
    await clock.advance(0);
    expect(searches()).toBe(2);
    await clock.advance(500);
    expect(searches()).toBe(3);
    await clock.advance(1_500);
    expect(searches()).toBe(6);
    expect(done).toBe(6);
  });

  it("throttles booking separately from search (5 TPS by default)", async () => {
    const sims = createVendorSimulators({ seed: 3, clock });
    const seen: string[] = [];
    const client = demoVendorClient("vendor-c", countingTransport(sims.byId["vendor-c"], seen), clock);
    const offers = (await client.search(STAY)).filter((o) => o.payments.includes("GUARANTEE"));
    for (let i = 0; i < 7; i++) {
      void client.book({
        providerOfferId: offers[i]!.providerOfferId,
        rooms: 1,
        guestNames: ["A"],
        payment: { method: "GUARANTEE" },
        idempotencyKey: randomUuid(),
      });
    }
    await clock.advance(0);
    expect(seen.filter((p) => p === "/bookings").length).toBe(5);
    // Searches still have their own tokens.
    await client.search(STAY);
    await clock.advance(200);
    expect(seen.filter((p) => p === "/bookings").length).toBe(6);
  });

  it("takes each tenant's own configured rate", async () => {
    const sims = createVendorSimulators({ seed: 3, clock });
    const seen: string[] = [];
    const vendors = new TenantInventoryVendors({
      clock,
      mockTransportOf: (vendor) => countingTransport(sims.byId[vendor as "vendor-b"], seen),
      settingsOf: (tenant) => ({
        mode: "mock",
        accounts: [
          {
            vendor: "vendor-b",
            enabled: true,
            credentials: demoClientFor("vendor-b"),
            limits: { inventory: tenant === "urn:airline:ZX" ? 1 : 20 },
          },
        ],
      }),
    });
    const [slow] = vendors.forTenant("urn:airline:ZX");
    const [fast] = vendors.forTenant("urn:airline:VQ");
    for (let i = 0; i < 4; i++) {
      void slow!.search(STAY);
      void fast!.search(STAY);
    }
    await clock.advance(0);
    expect(seen.filter((p) => p.endsWith("/availability")).length).toBe(1 + 4);
    expect(vendors.forTenant("urn:airline:ZX")[0]).toBe(slow);
  });
});
