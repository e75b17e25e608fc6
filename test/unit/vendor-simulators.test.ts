import { randomUuid } from "../../src/domain/uuid.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildCatalog, DEMO_AIRPORTS, type CatalogHotel } from "../../services/vendor-sim/catalog.js";
import { createVendorSimulators, type VendorSimulators } from "../../services/vendor-sim/simulators.js";
import { createVendorSimApp } from "../../services/vendor-sim/vendor-sim-app.js";
import { demoClientFor, type VendorSimulator } from "../../services/vendor-sim/vendor-simulator.js";
import { listen, type RunningServer } from "../../services/http-server.js";
import { AMENITIES } from "../../src/domain/policy/policy.js";
import { dedupOffers } from "../../src/domain/allocation/dedup.js";
import type { HotelOffer } from "../../src/domain/allocation/offer.js";
import { greatCircleKm } from "../../src/domain/geo.js";
import { ManualClock, systemClock, type Clock } from "../../src/runtime/clock.js";
import { httpTransport } from "../../src/vendors/http-transport.js";
import { inProcessTransport } from "../../src/vendors/in-process-transport.js";
import { VENDOR_ADAPTERS } from "../../src/vendors/adapters-by-vendor.js";
import { VendorError } from "../../src/vendors/vendor-error.js";
import type { VendorTransport } from "../../src/vendors/vendor-transport.js";
import { jsonRequest } from "../../src/vendors/wire.js";
import { demoVendorClient } from "./vendor-client-fixture.js";

const STAY = { airport: "JFK", checkIn: "2026-03-10", checkOut: "2026-03-12", rooms: 1 };

let clock: ManualClock;
let sims: VendorSimulators;

beforeEach(() => {
  clock = new ManualClock("2026-03-10T08:00:00Z");
  sims = createVendorSimulators({ seed: 42, clock });
});

function clientFor(
  sim: VendorSimulator,
  at: Clock = clock,
  transport: VendorTransport = inProcessTransport(sim),
) {
  return demoVendorClient(sim.id, transport, at);
}

function listedEverywhere(predicate: (hotel: CatalogHotel) => boolean = () => true): CatalogHotel {
  const hotel = sims.catalog.atAirport("JFK").find((h) => h.vendors.length === 3 && predicate(h));
  if (!hotel) throw new Error("seed 42 has no such hotel at JFK; pick another seed");
  return hotel;
}

function offerFor(offers: HotelOffer[], sim: VendorSimulator, hotel: CatalogHotel): HotelOffer {
  const offer = offers.find((o) => o.providerHotelId === sim.hotelId(hotel));
  if (!offer) throw new Error(`${sim.id} offered nothing for ${hotel.key}`);
  return offer;
}

describe("catalog", () => {
  it("places 25 to 40 plausible hotels within 30 km of every demo airport", () => {
    for (const airport of DEMO_AIRPORTS) {
      const hotels = sims.catalog.atAirport(airport.code);
      expect(hotels.length, airport.code).toBeGreaterThanOrEqual(25);
      expect(hotels.length, airport.code).toBeLessThanOrEqual(40);
      for (const hotel of hotels) {
        expect(greatCircleKm(airport, hotel)).toBeLessThanOrEqual(30.05);
        expect(hotel.vendors.length).toBeGreaterThanOrEqual(1);
        expect(hotel.vendors.length).toBeLessThanOrEqual(3);
        expect(hotel.address.country).toBe(airport.country);
        if (hotel.stars !== undefined) expect([1, 2, 3, 4, 5]).toContain(hotel.stars);
      }
    }
    const all = sims.catalog.hotels;
    expect(all.some((h) => h.stars === undefined)).toBe(true);
    expect(all.some((h) => h.chain !== undefined)).toBe(true);
    expect(all.filter((h) => h.vendors.length === 3).length).toBeGreaterThan(20);
    expect(new Set(all.map((h) => h.propertyCode)).size).toBe(all.length);
  });

  it("is the same for the same seed and different for another", () => {
    expect(buildCatalog({ seed: 42 }).hotels).toEqual(sims.catalog.hotels);
    expect(buildCatalog({ seed: 43 }).hotels).not.toEqual(sims.catalog.hotels);
  });

  it("keeps distinct buildings more than 100 m apart, so dedup never merges two of them", () => {
    for (const airport of DEMO_AIRPORTS) {
      const hotels = sims.catalog.atAirport(airport.code);
      const closest = Math.min(
        ...hotels.flatMap((a, i) => hotels.slice(i + 1).map((b) => greatCircleKm(a, b))),
      );
      expect(closest, airport.code).toBeGreaterThan(0.1);
    }
  });
});

describe("three wire shapes, one normalized hotel", () => {
  it("maps each vendor's listing of a physical hotel to the same name, address, place, stars, chain and amenities", async () => {
    const hotel = listedEverywhere((h) => h.stars !== undefined && h.chain !== undefined);
    const offers = await Promise.all(
      sims.all.map(async (sim) => offerFor(await clientFor(sim).search(STAY), sim, hotel)),
    );
    const expectedTags = AMENITIES.filter((tag) => (hotel.amenities as string[]).includes(tag));
    for (const offer of offers) {
      expect(offer).toMatchObject({
        name: hotel.name,
        address: `${hotel.address.line}, ${hotel.address.city} ${hotel.address.postalCode}, ${hotel.address.country}`,
        stars: hotel.stars,
        chainId: hotel.chain!.chainId,
        amenities: expectedTags,
        isDirectContract: false,
      });
      expect(greatCircleKm(offer, hotel)).toBeLessThan(0.02);
      expect(offer.roomsAvailable).toBe(hotel.roomsPerNight);
    }
    expect(offers.map((o) => o.nightlyRate.currency)).toEqual(["USD", "EUR", "GBP"]);
    expect(new Set(offers.map((o) => o.providerHotelId)).size).toBe(3);
    // A and C publish the property code; B does not, so only place (or name and address) ties it in.
    expect(offers[0]!.hotelUrn).toBe(`urn:hotel:${hotel.propertyCode}`);
    expect(offers[2]!.hotelUrn).toBe(offers[0]!.hotelUrn);
    expect(offers[1]!.hotelUrn).not.toBe(offers[0]!.hotelUrn);
    expect(dedupOffers(offers, (o) => o.nightlyRate.amountMinor)).toHaveLength(1);
  });

  it('reads unrated hotels as stars null from every shape (0, null, "unrated")', async () => {
    const unrated = sims.catalog.hotels.filter((h) => h.stars === undefined && h.vendors.length > 1);
    expect(unrated.length).toBeGreaterThan(0);
    const hotel = unrated[0]!;
    for (const vendor of hotel.vendors) {
      const sim = sims.byId[vendor];
      const offer = offerFor(await clientFor(sim).search({ ...STAY, airport: hotel.airport }), sim, hotel);
      expect(offer.stars).toBeNull();
    }
  });

  it("answers the same offers for the same seed", async () => {
    const twin = createVendorSimulators({ seed: 42, clock });
    for (const sim of sims.all) {
      const mine = await clientFor(sim).search(STAY);
      const theirs = await clientFor(twin.byId[sim.id]).search(STAY);
      expect(theirs).toEqual(mine);
      expect(mine.length).toBe(
        sims.catalog.atAirport("JFK").filter((h) => h.vendors.includes(sim.id)).length,
      );
    }
  });
});

describe("inventory", () => {
  it("decrements rooms per night on booking and gives them back on cancel", async () => {
    const small = createVendorSimulators({ seed: 42, clock, roomsPerNight: 3 });
    const sim = small.byId["vendor-c"];
    const client = clientFor(sim);
    const [offer] = (await client.search(STAY)).filter((o) => o.payments.includes("GUARANTEE"));
    const reservation = await client.book({
      providerOfferId: offer!.providerOfferId,
      rooms: 2,
      guestNames: ["Ada Lovelace", "Alan Turing"],
      payment: { method: "GUARANTEE" },
      idempotencyKey: randomUuid(),
    });
    expect(reservation).toMatchObject({
      provider: "vendor-c",
      status: "CONFIRMED",
      rooms: 2,
      checkIn: STAY.checkIn,
    });
    expect(reservation.total.amountMinor).toBe(offer!.nightlyRate.amountMinor * 2 * 2);
    const after = (await client.search(STAY)).find((o) => o.providerHotelId === offer!.providerHotelId);
    expect(after?.roomsAvailable).toBe(1);
    // Two rooms are no longer there: the offer is stale for that request.
    expect(await client.search({ ...STAY, rooms: 2 })).not.toContainEqual(
      expect.objectContaining({ providerHotelId: offer!.providerHotelId }),
    );
    const refused = await client
      .book({
        providerOfferId: offer!.providerOfferId,
        rooms: 2,
        guestNames: ["X"],
        payment: { method: "GUARANTEE" },
        idempotencyKey: randomUuid(),
      })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(VendorError);
    expect(refused).toMatchObject({
      vendorCode: "RATE_NOT_AVAILABLE",
      classification: "permanent-for-offer",
    });

    const cancelled = await client.cancel({
      reservationId: reservation.reservationId,
      idempotencyKey: randomUuid(),
    });
    expect(cancelled.status).toBe("CANCELLED");
    const restored = (await client.search(STAY)).find((o) => o.providerHotelId === offer!.providerHotelId);
    expect(restored?.roomsAvailable).toBe(3);
    expect((await client.lookup(reservation.reservationId)).status).toBe("CANCELLED");
  });

  it("hides a full hotel from search and refuses its offers with RATE_NOT_AVAILABLE", async () => {
    const sim = sims.byId["vendor-a"];
    const client = clientFor(sim);
    const hotel = sims.catalog.atAirport("JFK").find((h) => h.vendors.includes("vendor-a"))!;
    const offer = offerFor(await client.search(STAY), sim, hotel);
    sim.markHotelFull(hotel.key);
    expect((await client.search(STAY)).map((o) => o.providerHotelId)).not.toContain(sim.hotelId(hotel));
    await expect(
      client.book({
        providerOfferId: offer.providerOfferId,
        rooms: 1,
        guestNames: ["A"],
        payment: { method: "CARD", card: { number: "4111111111111111", expiry: "2030-01" } },
        idempotencyKey: randomUuid(),
      }),
    ).rejects.toMatchObject({ vendorCode: "RATE_NOT_AVAILABLE", classification: "permanent-for-offer" });
    sim.markHotelFull(hotel.key, false);
    expect((await client.search(STAY)).map((o) => o.providerHotelId)).toContain(sim.hotelId(hotel));
  });

  it("refuses a card that fails the Luhn check or has expired with INVALID_PAYMENT_INFO", async () => {
    const sim = sims.byId["vendor-b"];
    const client = clientFor(sim);
    const [offer] = await client.search(STAY);
    for (const card of [
      { number: "4111111111111112", expiry: "2030-01" },
      { number: "4111111111111111", expiry: "2026-02" },
    ]) {
      await expect(
        client.book({
          providerOfferId: offer!.providerOfferId,
          rooms: 1,
          guestNames: ["A"],
          payment: { method: "CARD", card },
          idempotencyKey: randomUuid(),
        }),
      ).rejects.toMatchObject({ vendorCode: "INVALID_PAYMENT_INFO", classification: "permanent" });
    }
  });
});

describe("reconciliation", () => {
  it("lists bookings, cancellations and hotel-side changes since a timestamp, in every shape", async () => {
    for (const sim of sims.all) {
      const client = clientFor(sim);
      const offers = (await client.search(STAY)).filter((o) => o.payments.includes("GUARANTEE"));
      const book = (offerId: string) =>
        client.book({
          providerOfferId: offerId,
          rooms: 1,
          guestNames: ["Grace Hopper"],
          payment: { method: "GUARANTEE" },
          idempotencyKey: randomUuid(),
        });
      const first = await book(offers[0]!.providerOfferId);
      await clock.advance(60_000);
      const mark = new Date(clock.now()).toISOString();
      await clock.advance(60_000);
      const second = await book(offers[1]!.providerOfferId);
      sim.backend.amendCheckOut(second.reservationId, "2026-03-13");
      sim.backend.cancelByHotel(first.reservationId);

      const changes = await client.reconcile(mark);
      expect(changes.map((c) => [c.kind, c.reservation.reservationId])).toEqual([
        ["CREATED", second.reservationId],
        ["AMENDED", second.reservationId],
        ["CANCELLED", first.reservationId],
      ]);
      expect(changes[1]!.reservation.checkOut).toBe("2026-03-13");
      expect(changes.every((c) => c.reservation.provider === sim.id)).toBe(true);
      expect(await client.reconcile("2026-03-10T00:00:00Z")).toHaveLength(4);
    }
  });
});

describe("vendor OAuth", () => {
  it("issues 30-minute tokens and answers 401 to a missing, unknown or expired one", async () => {
    const sim = sims.byId["vendor-a"];
    const search = (token?: string) => {
      const request = VENDOR_ADAPTERS["vendor-a"]!.searchRequest(STAY);
      return sim.handle(
        token ? { ...request, headers: { ...request.headers, authorization: `Bearer ${token}` } } : request,
      );
    };
    expect((await search()).status).toBe(401);
    expect((await search("made-up")).status).toBe(401);
    const issued = await sim.handle(VENDOR_ADAPTERS["vendor-a"]!.tokenRequest(demoClientFor("vendor-a")));
    const { access_token, expires_in } = JSON.parse(issued.body) as {
      access_token: string;
      expires_in: number;
    };
    expect(expires_in).toBe(1800);
    expect((await search(access_token)).status).toBe(200);
    await clock.advance(30 * 60_000);
    const expired = await search(access_token);
    expect(expired.status).toBe(401);
    expect(expired.headers["www-authenticate"]).toContain("invalid_token");
    const wrongSecret = await sim.handle(
      VENDOR_ADAPTERS["vendor-a"]!.tokenRequest({ clientId: "demo-vendor-a", clientSecret: "nope" }),
    );
    expect(wrongSecret.status).toBe(401);
  });

  it("authenticates clients the way each vendor wants (form secret, HTTP Basic)", async () => {
    const asB = await sims.byId["vendor-b"].handle(
      VENDOR_ADAPTERS["vendor-b"]!.tokenRequest(demoClientFor("vendor-b")),
    );
    expect(asB.status).toBe(200);
    const formSecret = VENDOR_ADAPTERS["vendor-a"]!.tokenRequest(demoClientFor("vendor-b"));
    const formAtB = await sims.byId["vendor-b"].handle({ ...formSecret, path: "/auth/token" });
    expect(formAtB.status).toBe(401);
    const unknownRoute = await sims.byId["vendor-c"].handle(jsonRequest("GET", "/nowhere"));
    expect(unknownRoute.status).toBe(404);
  });
});

describe("latency and faults", () => {
  it("answers after the configured latency on the injected clock", async () => {
    const slow = createVendorSimulators({
      seed: 42,
      clock,
      faults: { "vendor-b": { latency: { fixedMs: 300, jitterMs: 0 } } },
    });
    let answered = false;
    const pending = slow.byId["vendor-b"].handle(jsonRequest("GET", "/api/v2/bookings/x")).then((r) => {
      answered = true;
      return r;
    });
    await clock.advance(299);
    expect(answered).toBe(false);
    await clock.advance(1);
    expect((await pending).status).toBe(401);
  });

  it("counts the requests it receives per operation on arrival, refused ones included", async () => {
    const slow = createVendorSimulators({
      seed: 42,
      clock,
      faults: { "vendor-b": { latency: { fixedMs: 300, jitterMs: 0 } } },
    });
    const vendorB = slow.byId["vendor-b"];
    const client = clientFor(vendorB);
    const searched = client.search(STAY);
    // The token is answered after the latency; the search is counted as it arrives, before its own.
    await clock.advance(300);
    expect(vendorB.requestsReceived()).toEqual({ token: 1, search: 1 });
    await clock.advance(300);
    await searched;
    const refused = vendorB.handle(jsonRequest("GET", "/api/v2/bookings/x"));
    expect(vendorB.requestsReceived()).toEqual({ token: 1, search: 1, lookup: 1 });
    await clock.advance(300);
    expect((await refused).status).toBe(401);
    expect(vendorB.requestsReceived()).toEqual({ token: 1, search: 1, lookup: 1 });
  });

  it("draws the same latencies and random faults for the same seed", async () => {
    const draw = () => {
      const set = createVendorSimulators({
        seed: 7,
        clock,
        faults: {
          "vendor-a": {
            latency: { fixedMs: 50, jitterMs: 200 },
            errorRates: { "server-error": 0.3, "rate-limited": 0.2 },
          },
        },
      });
      const faults = set.byId["vendor-a"].faults;
      return Array.from({ length: 40 }, () => [
        faults.latencyMs(),
        faults.draw("search", "infrastructure") ?? "-",
      ]);
    };
    const first = draw();
    expect(draw()).toEqual(first);
    expect(new Set(first.map(([ms]) => ms)).size).toBeGreaterThan(10);
    expect(first.some(([, fault]) => fault === "server-error")).toBe(true);
    expect(first.some(([, fault]) => fault === "-")).toBe(true);
  });

  it("keeps a forced business fault queued until an operation it belongs to", async () => {
    const sim = sims.byId["vendor-a"];
    sim.failNext("NON_REFUNDABLE");
    const client = clientFor(sim);
    const [offer] = (await client.search(STAY)).filter((o) => o.payments.includes("GUARANTEE"));
    const reservation = await client.book({
      providerOfferId: offer!.providerOfferId,
      rooms: 1,
      guestNames: ["A"],
      payment: { method: "GUARANTEE" },
      idempotencyKey: randomUuid(),
    });
    await expect(
      client.cancel({ reservationId: reservation.reservationId, idempotencyKey: randomUuid() }),
    ).rejects.toMatchObject({
      vendorCode: "NON_REFUNDABLE",
      classification: "permanent",
    });
  });
});

describe("vendor-sim app over HTTP", () => {
  let server: RunningServer;
  let httpSims: VendorSimulators;

  beforeEach(async () => {
    httpSims = createVendorSimulators({ seed: 42, clock: systemClock });
    server = await listen(createVendorSimApp(httpSims.all), "127.0.0.1", 0);
  });

  afterEach(async () => {
    await server.close();
  });

  it("serves every vendor under its id with the same answers as in-process", async () => {
    for (const sim of httpSims.all) {
      const overHttp = clientFor(sim, systemClock, httpTransport(`${server.url}/${sim.id}`));
      const inProcess = clientFor(
        createVendorSimulators({ seed: 42, clock: systemClock }).byId[sim.id],
        systemClock,
      );
      const offers = await overHttp.search(STAY);
      expect(offers.length).toBeGreaterThan(5);
      expect(offers).toEqual(await inProcess.search(STAY));
    }
  });

  it("honours the Idempotency-Key of a booking and a cancellation: one room, one cancellation, a reused key refused", async () => {
    // The simulators run on the system clock here: a stay ahead of it, still free to cancel.
    const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
    const stay = { ...STAY, checkIn: day(2), checkOut: day(3) };
    for (const sim of httpSims.all) {
      const client = clientFor(sim, systemClock, httpTransport(`${server.url}/${sim.id}`));
      const offers = (await client.search(stay)).filter((o) => o.payments.includes("GUARANTEE"));
      const requestFor = (offer: HotelOffer) => ({
        providerOfferId: offer.providerOfferId,
        rooms: 1,
        guestNames: ["Ada Lovelace"],
        payment: { method: "GUARANTEE" as const },
        idempotencyKey: randomUuid(),
      });
      // A refundable booking, so that it can be cancelled below.
      let request = requestFor(offers[0]!);
      let first = await client.book(request);
      for (const offer of offers.slice(1)) {
        if (first.refundable) break;
        request = requestFor(offer);
        first = await client.book(request);
      }
      // The answer was lost (a process died before recording it): the same key again.
      const again = await client.book(request);
      expect(again.reservationId, sim.id).toBe(first.reservationId);
      const other = offers.find((o) => o.providerOfferId !== request.providerOfferId)!;
      const reused = await client
        .book({ ...request, providerOfferId: other.providerOfferId })
        .catch((e: unknown) => e);
      expect(reused, sim.id).toMatchObject({
        vendorCode: "IDEMPOTENCY_KEY_REUSED",
        httpStatus: 422,
        retryable: false,
      });
      const cancel = { reservationId: first.reservationId, idempotencyKey: randomUuid() };
      expect((await client.cancel(cancel)).status).toBe("CANCELLED");
      expect((await client.cancel(cancel)).status).toBe("CANCELLED");
      const ledger = sim.backend
        .changesSince(-1)
        .filter((c) => c.reservation.reservationId === first.reservationId);
      expect(
        ledger.map((c) => c.kind),
        sim.id,
      ).toEqual(["CREATED", "CANCELLED"]);
    }
  });

  it("injects faults through /_sim and reports a dropped connection as a transient network error", async () => {
    const fail = (vendor: string, kind: string, times: number) =>
      fetch(`${server.url}/${vendor}/_sim/fail-next`, {
        method: "POST",
        body: JSON.stringify({ kind, times }),
      });
    expect((await fail("vendor-c", "connection-reset", 3)).status).toBe(204);
    const client = demoVendorClient("vendor-c", httpTransport(`${server.url}/vendor-c`), systemClock, {
      retry: { inventory: { maxAttempts: 1, baseDelayMs: 0, rateLimitedBaseDelayMs: 0, maxDelayMs: 0 } },
    });
    const error = await client.search(STAY).catch((e: unknown) => e);
    expect(error).toMatchObject({ vendorCode: "NETWORK_ERROR", classification: "transient" });
    expect((await fetch(`${server.url}/vendor-c/_sim/nothing`, { method: "POST" })).status).toBe(404);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});
