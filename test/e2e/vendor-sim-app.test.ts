import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
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

  it("answers 404 for a vendor it does not simulate", async () => {
    expect((await fetch(`${t.base}/vendor-z/_sim/hotel-full`, { method: "POST" })).status).toBe(404);
  });
});
