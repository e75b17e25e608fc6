/**
 * Bindings for integrators over MQTT (README): an airline whose systems speak MQTT publishes its
 * disruption pushes to a topic on its broker (Mosquitto here); the embedded runtime's MQTT binding
 * hands each to the partner push's use case as the integration's registration, as the RabbitMQ
 * binding does: one case per externalEventId, refused and unreadable pushes dropped, audited.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caseUrnFor } from "../../src/domain/case.js";
import { push } from "../e2e/cases-fixtures.js";
import { MOSQUITTO_URL, mosquittoForTests, publishToTopic } from "../support/mosquitto.js";
import { caseOpened, type PushBindingPlatform, startPushBindingPlatform } from "../support/push-binding.js";
import { json } from "../support/responses.js";

const ZX = "urn:airline:ZX";
const enc = encodeURIComponent;

const broker = await mosquittoForTests("Disruption pushes over MQTT");

describe.runIf(broker.reachable)("the disruption-push input binding over MQTT", () => {
  const topic = `airlines/zx/disruption-pushes/${randomUUID()}`;
  const run = randomUUID().slice(0, 8);
  let p: PushBindingPlatform;

  beforeAll(async () => {
    p = await startPushBindingPlatform(MOSQUITTO_URL, topic, { APP_ID: `mqtt-test-${run}` });
  });
  afterAll(async () => {
    await p?.t.close();
  });

  it("opens one case per externalEventId as the integration, drops refused and unreadable pushes, and audits each push", async () => {
    const first = push(`mqtt-${run}-1`);
    await publishToTopic(topic, [
      first,
      first,
      "{not json",
      { ...push(`mqtt-${run}-bad`), passengers: "none" },
      push(`mqtt-${run}-2`),
    ]);
    // Messages are handled in order: the last one's case means every earlier one was handled.
    await caseOpened(p, `mqtt-${run}-2`);
    const caseUrn = await caseOpened(p, `mqtt-${run}-1`);
    const refused = caseUrnFor(ZX, `mqtt-${run}-bad`);
    expect((await p.t.call("GET", `/partner/v1/cases/${enc(refused)}`, p.skyhub)).status).toBe(404);

    const trail = await json<{ items: { action: string; actorUrn: string }[] }>(
      await p.t.call("GET", `/v1/audit/case/${enc(caseUrn)}`, p.supervisor),
      200,
    );
    const pushes = trail.items.filter((e) => e.action === "pushDisruption");
    expect(pushes.map((e) => e.actorUrn)).toEqual(["urn:partner:skyhub", "urn:partner:skyhub"]);
    expect(trail.items.filter((e) => e.action === "case.opened")).toHaveLength(1);
  });
});
