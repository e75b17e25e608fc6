import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { PolicyAdministration } from "../../src/app/policies/policy-administration.js";
import { CaseTransfers } from "../../src/app/transport/case-transfers.js";
import { caseUrnFor } from "../../src/domain/case.js";
import type { SubCase } from "../../src/domain/sub-case.js";
import type { Doc } from "../../src/runtime/document-store.js";
import { type Platform } from "../../src/main.js";
import { type DaprWorkers, startDaprWorkers } from "../support/dapr-workers.js";
import type { StandinSidecar } from "../support/standin-sidecar/index.js";

/**
 * The composition root on the distributed runtime: the same service, started with RUNTIME=dapr,
 * talks to a stand-in sidecar for actors, pub/sub, state and workflows.
 */
let workers: DaprWorkers;
let sidecar: StandinSidecar;
let platform: Platform;
let base: string;
let partnerToken: () => Promise<string>;

beforeAll(async () => {
  workers = await startDaprWorkers();
  ({ sidecar, platform, base, partnerToken } = workers);
}, 60_000);

afterAll(async () => {
  await workers?.close();
});

describe("the platform on the Dapr runtime (stand-in sidecar)", () => {
  it("reports its actor types and subscriptions to the sidecar and answers /version", async () => {
    expect(platform.runtime.kind).toBe("dapr");
    const config = (await (await fetch(`${base}/dapr/config`)).json()) as { entities: string[] };
    expect(config.entities).toEqual(
      expect.arrayContaining([
        "CaseActor",
        "SubCaseActor",
        "WalletCardActor",
        "WalletReconciliationActor",
        "TransportSegmentActor",
      ]),
    );
    const subscriptions = (await (await fetch(`${base}/dapr/subscribe`)).json()) as Array<{ topic: string }>;
    expect(subscriptions.map((s) => s.topic)).toEqual(expect.arrayContaining(["events.urn.airline.ZX"]));
    const version = await fetch(`${base}/version`, {
      headers: { Authorization: `Bearer ${await partnerToken()}` },
    });
    expect(version.status).toBe(200);
  });

  it("opens a case from a partner push through sidecar actors and creates its sub-cases from the event", async () => {
    const token = await partnerToken();
    const body = {
      externalEventId: "dapr-evt-1",
      airlineUrn: "urn:airline:ZX",
      flight: {
        iataDesignator: "ZX100",
        originAirport: "JFK",
        destinationAirport: "LHR",
        scheduledDeparture: "2026-11-21T22:00:00Z",
      },
      disruption: { type: "CANCELLED", reason: "WEATHER", decidedAt: "2026-11-21T20:00:00Z" },
      passengers: [
        {
          pnr: "ABC123",
          lastName: "Rivera",
          cabinClass: "ECONOMY",
          loyaltyTier: "STANDARD",
          contact: { email: "r@example.com" },
        },
        {
          pnr: "XYZ789",
          lastName: "Okafor",
          cabinClass: "ECONOMY",
          loyaltyTier: "STANDARD",
          contact: { phone: "+15550100" },
        },
      ],
      nextFlight: { iataDesignator: "ZX102", scheduledDeparture: "2026-11-22T18:00:00Z" },
    };
    const pushes = await Promise.all(
      Array.from({ length: 5 }, () =>
        fetch(`${base}/partner/v1/disruptions`, {
          method: "POST",
          headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
          body: JSON.stringify(body),
        }),
      ),
    );
    const answers = (await Promise.all(pushes.map((r) => r.json()))) as Array<{
      caseUrn: string;
      subCaseCount: number;
    }>;
    expect(pushes.map((r) => r.status)).toEqual([202, 202, 202, 202, 202]);
    expect(new Set(answers.map((a) => a.caseUrn)).size).toBe(1);
    expect(answers[0]?.subCaseCount).toBe(2);

    await sidecar.idle();
    const subCases = platform.runtime.documents.collection("sub-cases");
    expect(await subCases.count({ caseUrn: answers[0]!.caseUrn })).toBe(2);
  });
  it("is ready when the sidecar and the stores answer, and names the sidecar when it does not (GET /readyz)", async () => {
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(((await ready.json()) as { checks: unknown[] }).checks).toContainEqual({
      name: "Dapr sidecar",
      ready: true,
    });

    const realFetch = globalThis.fetch;
    const silentSidecar = vi
      .spyOn(globalThis, "fetch")
      .mockImplementation((input, init) =>
        String(input instanceof Request ? input.url : input).endsWith("/v1.0/metadata")
          ? Promise.reject(new TypeError("fetch failed"))
          : realFetch(input, init),
      );
    try {
      const response = await fetch(`${base}/readyz`);
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({
        type: "https://errors.svc.example/v1/unavailable/not-ready",
        notReady: ["Dapr sidecar"],
      });
    } finally {
      silentSidecar.mockRestore();
    }
  });

  it("runs a pushed disruption with two passenger groups to an offer for each group", {
    timeout: 60_000,
  }, async () => {
    // The distributed runtime seeds no demo policies: an auto-approving ON_DEMAND policy for the
    // airport lets the case's demand start allocation with nobody approving it.
    const policies = platform.container.resolve(PolicyAdministration);
    const request = {
      principal: {
        surface: "operator" as const,
        actorUrn: "urn:system:dapr-platform-test",
        tenant: "urn:airline:ZX",
        role: "ADMIN" as const,
        amr: [],
        expiresAt: Number.MAX_SAFE_INTEGER,
      },
      correlationUrn: "urn:trace:0123456789abcdef0123456789abcdef",
      reason: "rooms on demand at JFK",
    };
    const draft = await policies.create(request, {
      name: "JFK hotels on demand",
      context: { airport: "JFK", airline: "ZX" },
      constraints: { minStars: 3, maxDistanceKm: 25 },
      mode: "ON_DEMAND",
      autoApproveDemand: true,
      maxAutomaticRoomsPerWave: 300,
    });
    await policies.activate(request, draft.urn);

    const departure = new Date(Date.now() + 4 * 3_600_000);
    const push = await fetch(`${base}/partner/v1/disruptions`, {
      method: "POST",
      headers: { Authorization: `Bearer ${await partnerToken()}`, "Content-Type": "application/json" },
      body: JSON.stringify({
        externalEventId: "dapr-evt-two-groups",
        airlineUrn: "urn:airline:ZX",
        flight: {
          iataDesignator: "ZX110",
          originAirport: "JFK",
          destinationAirport: "LHR",
          scheduledDeparture: departure.toISOString(),
        },
        disruption: { type: "CANCELLED", reason: "WEATHER", decidedAt: new Date().toISOString() },
        passengers: [
          { pnr: "ABC123", lastName: "Rivera", contact: { email: "r@example.com" } },
          { pnr: "XYZ789", lastName: "Okafor", contact: { phone: "+15550100" } },
        ],
        nextFlight: {
          iataDesignator: "ZX112",
          scheduledDeparture: new Date(departure.getTime() + 86_400_000).toISOString(),
        },
      }),
    });
    expect(push.status).toBe(202);
    const { caseUrn } = (await push.json()) as { caseUrn: string };

    const subCases = platform.runtime.documents.collection<SubCase & Doc>("sub-cases");
    await vi.waitFor(
      async () => {
        const statuses = (await subCases.findAll({ caseUrn })).map((s) => [s.groupId, s.status]);
        expect(statuses.sort()).toEqual([
          ["ABC123", "OFFER_READY"],
          ["XYZ789", "OFFER_READY"],
        ]);
      },
      { timeout: 45_000, interval: 100 },
    );
    const types = sidecar.http.published().map((e) => (e.data as { type?: string }).type);
    expect(types.filter((t) => t === "review-item.created")).toHaveLength(
      types.filter((t) => t === "review-item.raised").length,
    );
  });

  it("books the case's ground transport through sidecar actors, idempotently", {
    timeout: 30_000,
  }, async () => {
    // The case of the test above: both groups hold a room.
    const caseUrn = caseUrnFor("urn:airline:ZX", "dapr-evt-two-groups");
    const transfers = platform.container.resolve(CaseTransfers);
    const principal = {
      surface: "operator" as const,
      actorUrn: "urn:user:dapr-platform-test",
      tenant: "urn:airline:ZX",
      role: "AIRPORT_OPERATOR" as const,
      amr: [],
      expiresAt: Number.MAX_SAFE_INTEGER,
    };
    const trace = "urn:trace:0123456789abcdef0123456789abcdee";
    const first = await transfers.request(principal, caseUrn, {}, trace);
    expect(first.segments.map((s) => [s.groupId, s.direction, s.status])).toEqual([
      ["ABC123", "AIRPORT_TO_HOTEL", "BOOKED"],
      ["ABC123", "HOTEL_TO_AIRPORT", "BOOKED"],
      ["XYZ789", "AIRPORT_TO_HOTEL", "BOOKED"],
      ["XYZ789", "HOTEL_TO_AIRPORT", "BOOKED"],
    ]);
    const again = await transfers.request(principal, caseUrn, {}, trace);
    expect(again.ridesRequested).toBe(0);
    expect(again.segments.map((s) => s.ride?.rideId)).toEqual(first.segments.map((s) => s.ride?.rideId));
  });
});
