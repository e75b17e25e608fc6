/**
 * Bindings for integrators on the distributed runtime: the workers app takes the input binding
 * components of components/ (RabbitMQ, MQTT, Kafka), which daprd delivers to
 * /bindings/disruption-pushes, and each delivery takes the partner push's use case as the
 * integration's registration; flight states likewise reach the flight-state intake through
 * /bindings/flight-states. The stand-in sidecar probes the route with OPTIONS at attach and
 * posts the payloads, as daprd does.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FLIGHT_STATES_COLLECTION } from "../../src/app/flight-states/flight-state-intake.js";
import { caseUrnFor } from "../../src/domain/case.js";
import { type DaprWorkers, startDaprWorkers } from "../support/dapr-workers.js";
import { push } from "../e2e/cases-fixtures.js";

const ZX = "urn:airline:ZX";
let workers: DaprWorkers;

/** Delivers once the modules have started (before that the app answers 503 and the broker keeps it). */
async function deliver(component: string, payload: string | object): Promise<number> {
  for (;;) {
    const status = await workers.sidecar.http.deliverInputBinding(component, payload);
    if (status !== 503) return status;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  workers = await startDaprWorkers(
    {
      DISRUPTION_PUSH_BINDING: "dapr",
      DISRUPTION_PUSH_CLIENT_ID: "skyhub-zx",
      FLIGHT_STATE_SOURCE: "dapr",
      DEMAND_ON_INTAKE: "off",
      DEMO_POLICIES: "off",
    },
    { resiliency: false },
  );
}, 60_000);

afterAll(async () => {
  await workers?.close();
});

describe("disruption pushes by Dapr input bindings", () => {
  it("opens one case for the same push over RabbitMQ, MQTT and Kafka and the HTTP route, audited against the partner", async () => {
    const body = push("dapr-binding-1");
    for (const component of [
      "disruption-pushes-rabbitmq",
      "disruption-pushes-mqtt",
      "disruption-pushes-kafka",
    ]) {
      expect(await deliver(component, body)).toBe(200);
    }
    const caseUrn = caseUrnFor(ZX, "dapr-binding-1");
    const partner = await workers.partnerToken();
    const replay = await fetch(`${workers.base}/partner/v1/disruptions`, {
      method: "POST",
      headers: { Authorization: `Bearer ${partner}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(replay.status).toBe(202);
    expect(((await replay.json()) as { caseUrn: string }).caseUrn).toBe(caseUrn);

    const trail = await workers.platform.audit.query({ tenant: ZX, caseUrn, limit: 100 });
    const pushes = trail.items.filter((entry) => entry.action === "pushDisruption");
    expect(pushes).toHaveLength(4);
    expect(new Set(pushes.map((entry) => entry.actorUrn))).toEqual(new Set(["urn:partner:skyhub"]));
    expect(trail.items.filter((entry) => entry.action === "case.opened")).toHaveLength(1);
  });

  it("acknowledges and drops what the route would refuse or cannot read, opening nothing", async () => {
    expect(await deliver("disruption-pushes-rabbitmq", "{not json")).toBe(200);
    expect(
      await deliver("disruption-pushes-mqtt", push("dapr-binding-vq", { airlineUrn: "urn:airline:VQ" })),
    ).toBe(200);
    expect(
      await deliver("disruption-pushes-kafka", { ...push("dapr-binding-bad"), passengers: "none" }),
    ).toBe(200);
    for (const [tenant, id] of [
      [ZX, "dapr-binding-vq"],
      ["urn:airline:VQ", "dapr-binding-vq"],
      [ZX, "dapr-binding-bad"],
    ] as const) {
      const trail = await workers.platform.audit.query({
        tenant,
        caseUrn: caseUrnFor(tenant, id),
        limit: 10,
      });
      expect(trail.items).toEqual([]);
    }
  });

  it("takes flight states from the flight-state binding, once per message", async () => {
    const state = {
      messageId: "dapr-binding-state-1",
      airline: ZX,
      observedAt: "2026-11-21T18:00:00Z",
      flight: {
        number: "ZX500",
        origin: "JFK",
        destination: "MAD",
        scheduledDeparture: "2026-11-21T22:00:00Z",
        status: "DELAYED",
      },
      delayMinutes: 45,
    };
    expect(await deliver("flight-states-rabbitmq", state)).toBe(200);
    expect(await deliver("flight-states-rabbitmq", state)).toBe(200);
    const assessed = await workers.platform.runtime.documents
      .collection<{ _id: string; messageId: string }>(FLIGHT_STATES_COLLECTION)
      .findAll({ messageId: "dapr-binding-state-1" });
    expect(assessed).toHaveLength(1);
  });
});
