import { beforeEach, describe, expect, it } from "vitest";
import { createVendorSimulators } from "../../services/vendor-sim/simulators.js";
import { ManualClock } from "../../src/runtime/clock.js";
import { inProcessTransport } from "../../src/vendors/in-process-transport.js";
import { TokenCache } from "../../src/vendors/token-cache.js";
import { VENDOR_ADAPTERS } from "../../src/vendors/adapters-by-vendor.js";
import { VendorClient } from "../../src/vendors/vendor-client.js";
import { VendorError } from "../../src/vendors/vendor-error.js";
import { jsonResponse, type WireRequest } from "../../src/vendors/wire.js";
import { demoVendorClient } from "./vendor-client-fixture.js";

const MINUTE = 60_000;
const STAY = { airport: "BOS", checkIn: "2026-03-10", checkOut: "2026-03-11", rooms: 1 };

let clock: ManualClock;
let fetched: number;
let cache: TokenCache;

beforeEach(() => {
  clock = new ManualClock("2026-03-10T08:00:00Z");
  fetched = 0;
  cache = new TokenCache(
    async () => ({ accessToken: `token-${++fetched}`, expiresInSeconds: 30 * 60 }),
    clock,
  );
});

describe("token cache", () => {
  it("reuses a token until 60 s before it expires, then fetches a new one", async () => {
    expect(await cache.token()).toBe("token-1");
    await clock.advance(29 * MINUTE - 1);
    expect(await cache.token()).toBe("token-1");
    await clock.advance(1);
    expect(await cache.token()).toBe("token-2");
    expect(fetched).toBe(2);
  });

  it("lets concurrent callers share one token request", async () => {
    const tokens = await Promise.all([cache.token(), cache.token(), cache.token()]);
    expect(tokens).toEqual(["token-1", "token-1", "token-1"]);
    expect(fetched).toBe(1);
  });

  it("forces one refresh after a 401 and tries once more", async () => {
    const seen: string[] = [];
    const answer = await cache.authorized(
      async (token) => {
        seen.push(token);
        return token === "token-1" ? 401 : 200;
      },
      (status) => status === 401,
    );
    expect(answer).toBe(200);
    expect(seen).toEqual(["token-1", "token-2"]);
  });

  it("gives the second 401 back instead of refreshing again", async () => {
    const seen: string[] = [];
    const answer = await cache.authorized(
      async (token) => {
        seen.push(token);
        return 401;
      },
      (status) => status === 401,
    );
    expect(answer).toBe(401);
    expect(seen).toEqual(["token-1", "token-2"]);
    expect(fetched).toBe(2);
  });

  it("refreshes once when several calls get 401 for the same token", async () => {
    await cache.token();
    const call = (token: string) => Promise.resolve(token === "token-1" ? 401 : 200);
    const answers = await Promise.all([1, 2, 3].map(() => cache.authorized(call, (s) => s === 401)));
    expect(answers).toEqual([200, 200, 200]);
    expect(fetched).toBe(2);
  });
});

describe("vendor client tokens against a simulator", () => {
  it("keeps using the vendor's 30-minute token, and takes a new one 60 s before it expires", async () => {
    const sims = createVendorSimulators({ seed: 1, clock });
    const sim = sims.byId["vendor-b"];
    const client = demoVendorClient("vendor-b", inProcessTransport(sim), clock);
    await client.search(STAY);
    await clock.advance(28 * MINUTE);
    await client.search(STAY);
    expect(sim.tokens.issuedCount()).toBe(1);
    await clock.advance(MINUTE);
    await client.search(STAY);
    expect(sim.tokens.issuedCount()).toBe(2);
  });

  it("recovers from a vendor that revoked its tokens with one forced refresh", async () => {
    const sims = createVendorSimulators({ seed: 1, clock });
    const sim = sims.byId["vendor-c"];
    const client = demoVendorClient("vendor-c", inProcessTransport(sim), clock);
    await client.search(STAY);
    sim.revokeTokens();
    expect((await client.search(STAY)).length).toBeGreaterThan(0);
    expect(sim.tokens.issuedCount()).toBe(2);
  });

  it("fails permanently when the vendor still answers 401 after the forced refresh", async () => {
    const sims = createVendorSimulators({ seed: 1, clock });
    const sim = sims.byId["vendor-a"];
    const requests: WireRequest[] = [];
    const client = demoVendorClient(
      "vendor-a",
      {
        async send(request) {
          requests.push(request);
          if (request.path === sim.tokenPath) return sim.handle(request);
          return jsonResponse(401, { error: { code: "UNAUTHORIZED", message: "no" } });
        },
      },
      clock,
    );
    const error = await client.search(STAY).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VendorError);
    expect(error).toMatchObject({ classification: "permanent", vendorCode: "UNAUTHORIZED", httpStatus: 401 });
    expect(requests.map((r) => (r.path === sim.tokenPath ? "token" : "search"))).toEqual([
      "token",
      "search",
      "token",
      "search",
    ]);
  });

  it("reports refused client credentials as a permanent failure", async () => {
    const sims = createVendorSimulators({ seed: 1, clock });
    const client = new VendorClient({
      adapter: VENDOR_ADAPTERS["vendor-b"]!,
      transport: inProcessTransport(sims.byId["vendor-b"]),
      credentials: { clientId: "demo-vendor-b", clientSecret: "wrong" },
      clock,
    });
    await expect(client.search(STAY)).rejects.toMatchObject({
      classification: "permanent",
      vendorCode: "OAUTH_INVALID_CLIENT",
    });
  });
});
