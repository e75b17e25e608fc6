/**
 * The simulated ride provider and the ride-provider client together (in process): bookings by
 * reference, refusals, injected outages and dropped connections, the client's retries and circuit
 * breaker, and the signed progress callbacks.
 */
import { describe, expect, it } from "vitest";
import { verifyCallbackSignature } from "../../src/domain/notification-callbacks.js";
import type { RideCallback } from "../../src/domain/transport/ride-callbacks.js";
import { ManualClock, systemClock } from "../../src/runtime/clock.js";
import { CircuitOpenError } from "../../src/vendors/circuit-open-error.js";
import { inProcessTransport } from "../../src/vendors/in-process-transport.js";
import type { RideBookingRequest } from "../../src/vendors/ride-provider.js";
import { RideProviderClient } from "../../src/vendors/ride-provider-client.js";
import { VendorError } from "../../src/vendors/vendor-error.js";
import { DEMO_RIDE_PROVIDER, RideProviderSimulator } from "../../services/vendor-sim/ride-provider.js";

const QUICK_RETRY = { maxAttempts: 3, baseDelayMs: 1, rateLimitedBaseDelayMs: 1, maxDelayMs: 2 };

interface Posted {
  url: string;
  headers: Record<string, string>;
  body: string;
}

function setUp(answers: number[] = []) {
  const posted: Posted[] = [];
  const simulator = new RideProviderSimulator({
    clock: systemClock,
    seed: "test",
    post: async (url, headers, body) => {
      posted.push({ url, headers, body });
      return answers.shift() ?? 200;
    },
  });
  const client = (apiKey = DEMO_RIDE_PROVIDER.apiKey) =>
    new RideProviderClient({
      id: simulator.id,
      apiKey,
      clock: systemClock,
      transport: inProcessTransport(simulator),
      retry: QUICK_RETRY,
    });
  return { simulator, client: client(), clientWithKey: client, posted };
}

const booking = (reference: string, overrides: Partial<RideBookingRequest> = {}): RideBookingRequest => ({
  vehicleType: "SHUTTLE",
  passengers: 4,
  pickupLocation: "JFK airport, arrivals curb",
  dropoffLocation: "Harbor Inn",
  pickupAt: "2026-11-21T23:30:00Z",
  specialRequirements: [],
  reference,
  callbackUrl: "http://localhost/v1/transport/callbacks/rides",
  ...overrides,
});

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

describe("the simulated ride provider through its client", () => {
  it("quotes by vehicle and seats, and books one ride per reference", async () => {
    const { client, simulator } = setUp();
    const quote = await client.quote(booking("r1"));
    expect(quote).toMatchObject({ vehicleType: "SHUTTLE", price: { amountMinor: 3_500, currency: "USD" } });
    const ride = await client.book(booking("r1"));
    expect(ride).toMatchObject({
      status: "CONFIRMED",
      reference: "r1",
      dispatcherPhone: DEMO_RIDE_PROVIDER.dispatcherPhone,
    });
    expect((await client.book(booking("r1"))).rideId).toBe(ride.rideId);
    expect((await client.book(booking("r2"))).rideId).not.toBe(ride.rideId);
    expect(simulator.booked()).toHaveLength(2);
  });

  it("refuses with NO_VEHICLE_AVAILABLE as a permanent error, and a bad key as one too", async () => {
    const { client, clientWithKey, simulator } = setUp();
    simulator.declineNext();
    const refused = await rejection(client.book(booking("r1")));
    expect(refused).toBeInstanceOf(VendorError);
    expect(refused).toMatchObject({
      vendorCode: "NO_VEHICLE_AVAILABLE",
      classification: "permanent",
      kind: "unprocessable",
    });
    expect((await client.book(booking("r1"))).status).toBe("CONFIRMED");
    const unauthorized = await rejection(clientWithKey("wrong").book(booking("r3")));
    expect(unauthorized).toMatchObject({ vendorCode: "UNAUTHORIZED", httpStatus: 401, retryable: false });
  });

  it("retries an outage and a dropped connection, then gives a transient error, then opens its circuit", async () => {
    const { client, simulator } = setUp();
    simulator.failNext("unavailable", 1);
    simulator.failNext("connection-reset", 1);
    expect((await client.book(booking("r1"))).status).toBe("CONFIRMED");

    simulator.configureFaults({ errorRates: { "server-error": 1 } });
    const down = await rejection(client.book(booking("r2")));
    expect(down).toMatchObject({ classification: "transient", vendorCode: "HTTP_500" });
    // Three more failures reach the breaker's threshold (five in a row); the next call is refused at once.
    await rejection(client.book(booking("r3")));
    const open = await rejection(client.book(booking("r4")));
    expect(CircuitOpenError.is(open)).toBe(true);
    expect((open as CircuitOpenError).failedDomain).toBe("transport");
  });

  it("amends the pickup and the vehicle, and cancels once", async () => {
    const { client } = setUp();
    const ride = await client.book(booking("r1"));
    const later = await client.amend(ride.rideId, { pickupAt: "2026-11-22T00:15:00Z" });
    expect(later).toMatchObject({ pickupAt: "2026-11-22T00:15:00.000Z", etaAt: "2026-11-22T00:10:00.000Z" });
    const van = await client.amend(ride.rideId, { vehicleType: "WHEELCHAIR_VAN" });
    expect(van).toMatchObject({
      vehicleType: "WHEELCHAIR_VAN",
      vehicle: expect.stringMatching(/^wheelchair van /),
    });
    expect((await client.cancel(ride.rideId, "not needed")).status).toBe("CANCELLED");
    expect((await client.cancel(ride.rideId, "again")).status).toBe("CANCELLED");
    expect(await rejection(client.amend(ride.rideId, { pickupAt: "2026-11-22T01:00:00Z" }))).toMatchObject({
      vendorCode: "RIDE_NOT_CHANGEABLE",
    });
    expect(await rejection(client.cancel("ride-unknown", "x"))).toMatchObject({
      vendorCode: "RIDE_NOT_FOUND",
    });
  });

  it("calls back signed: a driver right after the booking, the ETA, the drop-off; retried until answered", async () => {
    const { client, simulator, posted } = setUp([503, 200]);
    const ride = await client.book(booking("r1"));
    await new Promise((resolve) => setTimeout(resolve, 5));
    await simulator.settled();
    await simulator.reportEta(ride.rideId, "2026-11-21T23:26:00.000Z");
    await simulator.complete(ride.rideId);
    const bodies = posted.map((p) => JSON.parse(p.body) as RideCallback);
    // The first driver-assigned callback got 503 and was sent again with the same event id.
    expect(bodies.map((b) => b.type)).toEqual(["driver-assigned", "driver-assigned", "eta", "completed"]);
    expect(bodies[0]!.eventId).toBe(bodies[1]!.eventId);
    expect(bodies[0]).toMatchObject({ rideId: ride.rideId, reference: "r1", driver: expect.any(String) });
    expect(bodies[2]!.etaAt).toBe("2026-11-21T23:26:00.000Z");
    for (const { headers, body, url } of posted) {
      expect(url).toBe("http://localhost/v1/transport/callbacks/rides");
      const valid = verifyCallbackSignature(
        DEMO_RIDE_PROVIDER.callbackSecret,
        headers["x-vendor-signature"],
        headers["x-vendor-signature-timestamp"],
        body,
        Date.now(),
      );
      expect(valid).toBe(true);
    }
    expect(simulator.ride(ride.rideId)!.callbacks.map((c) => [c.type, c.tries, c.status])).toEqual([
      ["driver-assigned", 2, 200],
      ["eta", 1, 200],
      ["completed", 1, 200],
    ]);
  });

  it("answers after its configured latency, on the injected clock", async () => {
    const clock = new ManualClock(Date.parse("2026-11-21T23:00:00Z"));
    const simulator = new RideProviderSimulator({
      clock,
      faults: { latency: { fixedMs: 400, jitterMs: 0 } },
    });
    let answered = false;
    const pending = simulator
      .handle({
        method: "POST",
        path: "/v1/quotes",
        headers: { authorization: `Bearer ${DEMO_RIDE_PROVIDER.apiKey}` },
        body: JSON.stringify(booking("r1")),
      })
      .then((response) => {
        answered = true;
        return response;
      });
    await clock.advance(399);
    expect(answered).toBe(false);
    await clock.advance(1);
    expect((await pending).status).toBe(200);
  });
});
