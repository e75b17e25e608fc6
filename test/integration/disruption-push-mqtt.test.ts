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
import { type TestPlatform, startTestPlatform } from "../support/platform.js";
import { json } from "../support/responses.js";

const ZX = "urn:airline:ZX";
const enc = encodeURIComponent;

const broker = await mosquittoForTests("Disruption pushes over MQTT");

describe.runIf(broker.reachable)("the disruption-push input binding over MQTT", () => {
  const topic = `airlines/zx/disruption-pushes/${randomUUID()}`;
  const run = randomUUID().slice(0, 8);
  let t: TestPlatform;
  let skyhub: string;
  let supervisor: string;

  async function opened(externalEventId: string): Promise<string> {
    const caseUrn = caseUrnFor(ZX, externalEventId);
    const deadline = Date.now() + 15_000;
    while ((await t.call("GET", `/partner/v1/cases/${enc(caseUrn)}`, skyhub)).status !== 200) {
      if (Date.now() > deadline) throw new Error(`no case for ${externalEventId}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return caseUrn;
  }

  beforeAll(async () => {
    t = await startTestPlatform({
      env: {
        DISRUPTION_PUSH_BINDING: MOSQUITTO_URL,
        DISRUPTION_PUSH_QUEUE: topic,
        DISRUPTION_PUSH_CLIENT_ID: "skyhub-zx",
        APP_ID: `mqtt-test-${run}`,
        DEMO_POLICIES: "off",
        DEMAND_ON_INTAKE: "off",
      },
    });
    skyhub = await t.partnerToken("skyhub-zx");
    supervisor = await t.operatorToken("supervisor@zx.demo");
  });
  afterAll(async () => {
    await t?.close();
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
    await opened(`mqtt-${run}-2`);
    const caseUrn = await opened(`mqtt-${run}-1`);
    const refused = caseUrnFor(ZX, `mqtt-${run}-bad`);
    expect((await t.call("GET", `/partner/v1/cases/${enc(refused)}`, skyhub)).status).toBe(404);

    const trail = await json<{ items: { action: string; actorUrn: string }[] }>(
      await t.call("GET", `/v1/audit/case/${enc(caseUrn)}`, supervisor),
      200,
    );
    const pushes = trail.items.filter((e) => e.action === "pushDisruption");
    expect(pushes.map((e) => e.actorUrn)).toEqual(["urn:partner:skyhub", "urn:partner:skyhub"]);
    expect(trail.items.filter((e) => e.action === "case.opened")).toHaveLength(1);
  });
});
