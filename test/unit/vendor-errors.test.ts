import { randomUuid } from "../../src/domain/uuid.js";
import { beforeEach, describe, expect, it } from "vitest";
import { createVendorSimulators, type VendorSimulators } from "../../services/vendor-sim/simulators.js";
import type { VendorSimulator } from "../../services/vendor-sim/vendor-simulator.js";
import { asProblemError } from "../../src/http/problem.js";
import { ManualClock } from "../../src/runtime/clock.js";
import { backoffDelayMs, BOOKING_RETRY, type RetryPolicy, SEARCH_RETRY } from "../../src/vendors/retry.js";
import { VendorClient } from "../../src/vendors/vendor-client.js";
import { classify, VendorError } from "../../src/vendors/vendor-error.js";
import type { VendorReservation } from "../../src/vendors/vendor-port.js";
import { demoVendorClient } from "./vendor-client-fixture.js";

const STAY = { airport: "MAD", checkIn: "2026-03-10", checkOut: "2026-03-12", rooms: 1 };

let clock: ManualClock;
let sims: VendorSimulators;

beforeEach(() => {
  clock = new ManualClock("2026-03-10T08:00:00Z");
  sims = createVendorSimulators({ seed: 11, clock });
});

/** A client that counts the calls reaching the vendor, per operation path (tokens excluded). */
function countedClient(sim: VendorSimulator, retry?: Partial<Record<"inventory" | "booking", RetryPolicy>>) {
  const calls: string[] = [];
  const client = demoVendorClient(
    sim.id,
    {
      send(request) {
        if (request.path !== sim.tokenPath) calls.push(`${request.method} ${request.path.split("?")[0]}`);
        return sim.handle(request);
      },
    },
    clock,
    { random: () => 0.5, ...(retry ? { retry } : {}) },
  );
  return { client, calls };
}

/** Advances the clock in steps until `promise` settles; returns its outcome. */
async function settled<T>(promise: Promise<T>, stepMs = 100, limitMs = 120_000): Promise<T | unknown> {
  let outcome: { value: T } | { error: unknown } | undefined;
  promise.then(
    (value) => {
      outcome = { value };
    },
    (error: unknown) => {
      outcome = { error };
    },
  );
  for (let waited = 0; !outcome && waited <= limitMs; waited += stepMs) await clock.advance(stepMs);
  if (!outcome) throw new Error("still pending");
  return "value" in outcome ? outcome.value : outcome.error;
}

async function bookable(client: VendorClient) {
  const offers = (await client.search(STAY)).filter((o) => o.payments.includes("GUARANTEE"));
  return offers[0]!;
}

async function booked(client: VendorClient): Promise<VendorReservation> {
  const offer = await bookable(client);
  return client.book({
    providerOfferId: offer.providerOfferId,
    rooms: 1,
    guestNames: ["Ann"],
    payment: { method: "GUARANTEE" },
    idempotencyKey: randomUuid(),
  });
}

describe("spec part 7 classification", () => {
  it.each([
    ["NON_REFUNDABLE", 409, "permanent"],
    ["BOOKING_PAST_CANCELLATION_DEADLINE", 409, "permanent"],
    ["INVALID_PAYMENT_INFO", 402, "permanent"],
    ["RATE_NOT_AVAILABLE", 409, "permanent-for-offer"],
    ["INTERNAL_ERROR", 500, "transient"],
    ["SERVICE_UNAVAILABLE", 503, "transient"],
    ["GATEWAY_TIMEOUT", 504, "transient"],
    ["TIMEOUT", undefined, "transient"],
    ["NETWORK_ERROR", undefined, "transient"],
    ["TOO_MANY_REQUESTS", 429, "rate-limited"],
    ["UNAUTHORIZED", 401, "permanent"],
    ["RESERVATION_NOT_FOUND", 404, "permanent"],
  ] as const)("%s (HTTP %s) is %s", (code, status, expected) => {
    expect(classify(code, status)).toBe(expected);
  });
});

describe("each vendor error class through the client", () => {
  it.each([
    ["RATE_NOT_AVAILABLE", "permanent-for-offer", 409],
    ["INVALID_PAYMENT_INFO", "permanent", 422],
  ] as const)(
    "book refused with %s: %s, not retried, X-Vendor-Error-Code set",
    async (kind, classification, status) => {
      const sim = sims.byId["vendor-a"];
      const { client, calls } = countedClient(sim);
      const offer = await bookable(client);
      sim.failNext(kind);
      const error = await client
        .book({
          providerOfferId: offer.providerOfferId,
          rooms: 1,
          guestNames: ["Ann"],
          payment: { method: "GUARANTEE" },
          idempotencyKey: randomUuid(),
        })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(VendorError);
      expect(error).toMatchObject({ vendor: "vendor-a", vendorCode: kind, classification, retryable: false });
      expect(calls.filter((c) => c === "POST /v1/bookings")).toHaveLength(1);
      const problem = asProblemError(error);
      expect(problem.status).toBe(status);
      expect(problem.headers["X-Vendor-Error-Code"]).toBe(kind);
    },
  );

  it.each(["NON_REFUNDABLE", "BOOKING_PAST_CANCELLATION_DEADLINE"] as const)(
    "cancel refused with %s: permanent, not retried, X-Vendor-Error-Code set",
    async (kind) => {
      const sim = sims.byId["vendor-b"];
      const { client, calls } = countedClient(sim);
      const reservation = await booked(client);
      sim.failNext(kind);
      const error = await client
        .cancel({ reservationId: reservation.reservationId, idempotencyKey: randomUuid() })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ vendorCode: kind, classification: "permanent", httpStatus: 409 });
      expect(calls.filter((c) => c.endsWith("/cancel"))).toHaveLength(1);
      expect(asProblemError(error).headers["X-Vendor-Error-Code"]).toBe(kind);
    },
  );

  it("meets NON_REFUNDABLE and BOOKING_PAST_CANCELLATION_DEADLINE without injection too", async () => {
    const sim = sims.byId["vendor-b"];
    const { client } = countedClient(sim);
    const offers = (await client.search(STAY)).filter((o) => o.payments.includes("GUARANTEE"));
    // Book until one rate of each plan is held; bookings beyond 5 per second wait for the clock.
    const reservations: VendorReservation[] = [];
    for (const offer of offers) {
      const booking = client.book({
        providerOfferId: offer.providerOfferId,
        rooms: 1,
        guestNames: ["Ann"],
        payment: { method: "GUARANTEE" },
        idempotencyKey: randomUuid(),
      });
      reservations.push((await settled(booking)) as VendorReservation);
      if (reservations.some((r) => r.refundable) && reservations.some((r) => !r.refundable)) break;
    }
    const nonRefundable = reservations.find((r) => !r.refundable)!;
    const refundable = reservations.find((r) => r.refundable)!;
    await expect(
      client.cancel({ reservationId: nonRefundable.reservationId, idempotencyKey: randomUuid() }),
    ).rejects.toMatchObject({
      vendorCode: "NON_REFUNDABLE",
    });
    await clock.advance(Date.parse(refundable.cancellationDeadline!) - clock.now() + 1);
    await expect(
      client.cancel({ reservationId: refundable.reservationId, idempotencyKey: randomUuid() }),
    ).rejects.toMatchObject({
      vendorCode: "BOOKING_PAST_CANCELLATION_DEADLINE",
    });
  });

  it.each(["server-error", "unavailable", "connection-reset", "rate-limited"] as const)(
    "%s is retried and the call succeeds",
    async (kind) => {
      const sim = sims.byId["vendor-a"];
      const { client, calls } = countedClient(sim);
      await client.search(STAY);
      sim.failNext(kind);
      const offers = await settled(client.search(STAY));
      expect(Array.isArray(offers) && offers.length > 0).toBe(true);
      expect(calls.filter((c) => c === "POST /v1/availability")).toHaveLength(3);
    },
  );

  it("a vendor that holds the request past the attempt timeout is retried as TIMEOUT", async () => {
    const sim = sims.byId["vendor-c"];
    const { client, calls } = countedClient(sim);
    await client.search(STAY);
    sim.failNext("timeout");
    const started = clock.now();
    const offers = await settled(client.search(STAY), 50);
    expect(Array.isArray(offers)).toBe(true);
    expect(calls.filter((c) => c === "POST /rates/search")).toHaveLength(3);
    // One 1.5 s attempt timeout, then a retry after the jittered backoff.
    expect(clock.now() - started).toBeGreaterThanOrEqual(1_500);
  });

  it.each([
    ["server-error", "INTERNAL_ERROR", "transient"],
    ["timeout", "TIMEOUT", "transient"],
    ["rate-limited", "TOO_MANY_REQUESTS", "rate-limited"],
  ] as const)(
    "%s on every attempt gives up after maxAttempts with %s, %s (503, no vendor code header)",
    async (kind, code, classification) => {
      const sim = sims.byId["vendor-a"];
      const { client, calls } = countedClient(sim);
      await client.search(STAY);
      sim.failNext(kind, SEARCH_RETRY.maxAttempts);
      const error = await settled(client.search(STAY));
      expect(error).toBeInstanceOf(VendorError);
      expect(error).toMatchObject({ classification });
      expect((error as VendorError).vendorCode).toBe(code);
      expect(calls.filter((c) => c === "POST /v1/availability")).toHaveLength(1 + SEARCH_RETRY.maxAttempts);
      const problem = asProblemError(error);
      expect(problem.status).toBe(503);
      expect(problem.headers["X-Vendor-Error-Code"]).toBeUndefined();
    },
  );
});

describe("backoff", () => {
  it("waits longer after a 429 than after a 5xx, and at least the vendor's Retry-After", async () => {
    const sim = sims.byId["vendor-b"];
    const { client, calls } = countedClient(sim);
    await client.search(STAY);
    const searches = () => calls.filter((c) => c === "GET /api/v2/hotels/availability").length;

    sim.failNext("server-error");
    const afterServerError = client.search(STAY);
    await clock.advance(0);
    expect(searches()).toBe(2);
    // random 0.5 of the 100 ms base: 50 ms.
    await clock.advance(49);
    expect(searches()).toBe(2);
    await clock.advance(1);
    expect(searches()).toBe(3);
    await afterServerError;

    sim.failNext("rate-limited");
    const afterRateLimit = client.search(STAY);
    await clock.advance(0);
    expect(searches()).toBe(4);
    // 0.5 of the 500 ms 429 base is 250 ms, but the vendor asked for Retry-After: 1.
    await clock.advance(999);
    expect(searches()).toBe(4);
    await clock.advance(1);
    expect(searches()).toBe(5);
    await afterRateLimit;
  });

  it("grows exponentially with full jitter, capped, from a longer base after 429", () => {
    const transient = new VendorError({ vendor: "v", httpStatus: 503 });
    const limited = new VendorError({ vendor: "v", httpStatus: 429 });
    const top = () => 0.999999;
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelayMs(transient, n, BOOKING_RETRY, top))).toEqual([
      249, 499, 999, 1999, 3999, 7999,
    ]);
    expect(backoffDelayMs(transient, 9, BOOKING_RETRY, top)).toBe(7999);
    expect(backoffDelayMs(limited, 1, BOOKING_RETRY, top)).toBe(1999);
    expect(backoffDelayMs(limited, 1, BOOKING_RETRY, () => 0)).toBe(0);
    expect(
      backoffDelayMs(
        new VendorError({ vendor: "v", httpStatus: 429, retryAfterMs: 5_000 }),
        1,
        BOOKING_RETRY,
        () => 0,
      ),
    ).toBe(5_000);
  });
});
