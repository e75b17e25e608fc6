/**
 * Spec 8.1's partner tiers over HTTP: each registration gets its tier's read and write rates, by
 * the tier the partner registry gives it (not a token claim), in a bucket of its own; the injected
 * clock refills it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SPEC_RATE_LIMITS } from "../../src/http/rate-limit.js";
import { ManualClock } from "../../src/runtime/clock.js";
import { type TestPlatform, startTestPlatform } from "../support/platform.js";
import { json } from "../support/responses.js";

let t: TestPlatform;
let clock: ManualClock;
const tokens: Record<string, string> = {};

const remaining = (response: Response) => Number(response.headers.get("x-ratelimit-remaining"));

beforeAll(async () => {
  clock = new ManualClock(Date.now());
  t = await startTestPlatform({ clock, env: { DEMAND_ON_INTAKE: "off", DEMO_POLICIES: "off" } });
  for (const clientId of ["skyhub-zx", "regulator-zx", "regulator-vq", "tripdesk-vq"]) {
    tokens[clientId] = await t.partnerToken(clientId);
  }
});
afterAll(async () => {
  await t?.close();
});

describe("partner tier rates (spec 8.1)", () => {
  it("gives each registration its tier's read rate: Tier-1 1200, Tier-2 600, Tier-3 60 a minute", async () => {
    for (const [clientId, tier] of [
      ["skyhub-zx", 1],
      ["regulator-zx", 2],
      ["tripdesk-vq", 3],
    ] as const) {
      const response = await t.call("GET", "/partner/v1/cases", tokens[clientId]);
      expect(response.status, clientId).toBe(200);
      expect(remaining(response), clientId).toBe(SPEC_RATE_LIMITS.partnerPerRegistration[tier].read - 1);
    }
  });

  it("refuses a Tier-3 registration's 61st read of the minute with 429 and Retry-After, not its airline's other registration", async () => {
    const tripdesk = tokens["tripdesk-vq"]!;
    let refused: Response | undefined;
    let served = 0;
    while (!refused && served <= 60) {
      const response = await t.call("GET", "/partner/v1/cases", tripdesk);
      if (response.status === 429) refused = response;
      else {
        expect(response.status).toBe(200);
        served++;
      }
    }
    // The first test spent one of the minute's 60.
    expect(served).toBe(59);
    const problem = await json<{ type: string }>(refused!, 429);
    expect(problem.type).toMatch(/\/rate-limited\/too-many-requests$/);
    expect(refused!.headers.get("retry-after")).toBe("1");
    expect(remaining(refused!)).toBe(0);

    // The same airline's Tier-2 registration has a bucket of its own.
    expect((await t.call("GET", "/partner/v1/cases", tokens["regulator-vq"])).status).toBe(200);

    // 60 a minute is one a second.
    await clock.advance(1_000);
    expect((await t.call("GET", "/partner/v1/cases", tripdesk)).status).toBe(200);
    expect((await t.call("GET", "/partner/v1/cases", tripdesk)).status).toBe(429);
  });
});
