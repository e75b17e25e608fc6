import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type DaprWorkers, startDaprWorkers } from "../support/dapr-workers.js";
import { json } from "../support/responses.js";
import { opensslSignature, signaturesOf, startWebhookReceiver } from "../support/webhook-receiver.js";

/**
 * Partner webhooks on the distributed runtime: the subscription and the delivery actor run through
 * a stand-in sidecar (pub/sub, actors, reminders) as they do under daprd.
 */
let workers: DaprWorkers;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

beforeAll(async () => {
  // Off by default on the distributed runtime; the receiver here is on 127.0.0.1.
  workers = await startDaprWorkers({ WEBHOOK_ALLOW_LOOPBACK_HTTP: "on", DEMAND_ON_INTAKE: "off" });
  receiver = await startWebhookReceiver();
}, 60_000);

afterAll(async () => {
  await workers?.close();
  await receiver?.close();
});

describe("partner webhooks on the Dapr runtime (stand-in sidecar)", () => {
  it("hosts the delivery actor and subscribes the workers app to the partner events", async () => {
    const config = (await (await fetch(`${workers.base}/dapr/config`)).json()) as { entities: string[] };
    expect(config.entities).toContain("WebhookDeliveryActor");
    const subscriptions = (await (await fetch(`${workers.base}/dapr/subscribe`)).json()) as Array<{
      topic: string;
    }>;
    expect(subscriptions.map((s) => s.topic)).toContain("events.urn.airline.ZX");
  });

  it("delivers a pushed disruption's case.opened, signed, through the sidecar's pub/sub and actors", async () => {
    const token = await workers.partnerToken();
    const call = (method: string, path: string, body?: unknown) =>
      fetch(`${workers.base}${path}`, {
        method,
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const { secret } = await json(await call("PUT", "/partner/v1/webhooks", { url: receiver.url }), 201);
    const accepted = await json(
      await call("POST", "/partner/v1/disruptions", {
        externalEventId: "dapr-webhook-1",
        airlineUrn: "urn:airline:ZX",
        flight: {
          iataDesignator: "ZX110",
          originAirport: "JFK",
          destinationAirport: "LHR",
          scheduledDeparture: "2026-11-21T22:00:00Z",
        },
        disruption: { type: "CANCELLED", reason: "WEATHER", decidedAt: "2026-11-21T20:00:00Z" },
        passengers: [{ pnr: "DAP123", lastName: "Rivera", cabinClass: "ECONOMY", loyaltyTier: "STANDARD" }],
        nextFlight: { iataDesignator: "ZX112", scheduledDeparture: "2026-11-22T18:00:00Z" },
      }),
      202,
    );
    const delivered = await vi.waitFor(
      () => {
        const found = receiver.received.find(
          (r) => r.body.type === "case.opened" && r.body.case_urn === accepted.caseUrn,
        );
        if (!found) throw new Error("not delivered yet");
        return found;
      },
      { timeout: 10_000, interval: 50 },
    );
    const timestamp = String(delivered.headers["x-svc-signature-timestamp"]);
    expect(signaturesOf(delivered)).toEqual([opensslSignature(secret, timestamp, delivered.rawBody)]);
    const read = await json(await call("GET", "/partner/v1/webhooks"), 200);
    await vi.waitFor(async () => {
      const again = await json(await call("GET", "/partner/v1/webhooks"), 200);
      expect(again.deliveries).toBeGreaterThanOrEqual(1);
    });
    expect(read.status).toBe("ACTIVE");
  });
});
