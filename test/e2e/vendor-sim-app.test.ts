import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { systemClock } from "../../src/runtime/clock.js";
import { httpTransport } from "../../src/vendors/http-transport.js";
import { RideProviderClient } from "../../src/vendors/ride-provider-client.js";
import { RideProviderSimulator } from "../../services/vendor-sim/ride-provider.js";
import { simulatorsOf } from "../support/container.js";
import { startTestPlatform, type TestPlatform } from "../support/platform.js";

/** A process running only the vendor-sim app serves the platform's one set of simulators. */
let t: TestPlatform;
beforeAll(async () => {
  t = await startTestPlatform({ env: { SERVICES: "vendor-sim" } });
});
afterAll(async () => {
  await t?.close();
});

describe("the vendor-sim app", () => {
  it("serves the platform's simulators, not a second set", async () => {
    const vendorA = simulatorsOf(t.platform).byId["vendor-a"];
    const marked = vi.spyOn(vendorA, "markHotelFull");
    const response = await fetch(`${t.base}/vendor-a/_sim/hotel-full`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ hotelKey: "some-hotel" }),
    });
    expect(response.status).toBe(204);
    expect(marked).toHaveBeenCalledWith("some-hotel", true);
  });

  it("serves the ride provider under /rides, with its dispatch controls", async () => {
    const simulator = t.platform.container.resolve(RideProviderSimulator);
    const client = new RideProviderClient({
      id: simulator.id,
      apiKey: simulator.settings.apiKey,
      clock: systemClock,
      transport: httpTransport(`${t.base}/${simulator.id}`),
    });
    const request = {
      vehicleType: "PRIVATE_CAR" as const,
      passengers: 1,
      pickupLocation: "JFK airport, arrivals curb",
      dropoffLocation: "Harbor Inn",
      pickupAt: "2026-11-21T23:30:00Z",
      specialRequirements: [],
      // Nobody listens there: the provider's callbacks are retried and given up, the booking stands.
      callbackUrl: "http://127.0.0.1:9/callbacks",
    };
    const ride = await client.book({ ...request, reference: "over-http-1" });
    expect(simulator.ride(ride.rideId)).toMatchObject({ status: "CONFIRMED", vehicleType: "PRIVATE_CAR" });
    const declined = await fetch(`${t.base}/rides/_sim/decline-next`, { method: "POST", body: "{}" });
    expect(declined.status).toBe(204);
    await expect(client.book({ ...request, reference: "over-http-2" })).rejects.toMatchObject({
      vendorCode: "NO_VEHICLE_AVAILABLE",
    });
  });

  it("answers 404 for a vendor it does not simulate", async () => {
    expect((await fetch(`${t.base}/vendor-z/_sim/hotel-full`, { method: "POST" })).status).toBe(404);
  });
});
