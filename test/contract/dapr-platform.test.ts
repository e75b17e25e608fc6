import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { pino } from "pino";
import { loadConfig } from "../../src/config.js";
import { type Platform, startPlatform } from "../../src/main.js";
import {
  type StandinSidecar,
  resiliencyFrom,
  startStandinSidecar,
} from "../support/standin-sidecar/index.js";
import { workflowSidecarPart } from "../support/standin-sidecar/workflow-grpc.js";
import { freePort, requestToken } from "../support/platform.js";

/**
 * The composition root on the distributed runtime: the same service, started with RUNTIME=dapr,
 * talks to a stand-in sidecar for actors, pub/sub, state and workflows.
 */
let sidecar: StandinSidecar;
let platform: Platform;
let base: string;

beforeAll(async () => {
  // The workers' sidecar, with the resiliency policies daprd loads from components/.
  sidecar = await startStandinSidecar({
    workflows: workflowSidecarPart,
    appId: "workers",
    resiliency: resiliencyFrom("components/resiliency.yaml"),
  });
  const [port, passengerPort] = [await freePort(), await freePort()];
  const config = loadConfig({
    RUNTIME: "dapr",
    APP_ID: "workers",
    PORT: String(port),
    PASSENGER_PORT: String(passengerPort),
    DAPR_HTTP_PORT: String(sidecar.httpPort),
    DAPR_GRPC_PORT: String(sidecar.grpcPort),
    LOG_LEVEL: "silent",
  });
  platform = await startPlatform(config, { logger: pino({ level: "silent" }) });
  await sidecar.attachApp(port);
  base = `http://localhost:${port}`;
}, 60_000);

afterAll(async () => {
  await platform?.close();
  await sidecar?.close();
});

function partnerToken(): Promise<string> {
  return requestToken(base, {
    grant_type: "client_credentials",
    client_id: "skyhub-zx",
    client_secret: "demo-secret-skyhub-zx",
    audience: `${base}/partner/v1`,
  });
}

describe("the platform on the Dapr runtime (stand-in sidecar)", () => {
  it("reports its actor types and subscriptions to the sidecar and answers /version", async () => {
    expect(platform.runtime.kind).toBe("dapr");
    const config = (await (await fetch(`${base}/dapr/config`)).json()) as { entities: string[] };
    expect(config.entities).toEqual(expect.arrayContaining(["CaseActor", "SubCaseActor"]));
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
});
