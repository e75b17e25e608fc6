/**
 * Bindings for integrators (README): an airline delivers disruption pushes over its own RabbitMQ
 * queue. Each message takes the partner push's use case as the integration's registration
 * (skyhub-zx): idempotent on externalEventId across the binding and POST /partner/v1/disruptions,
 * refused for another airline or a body the route would refuse, and audited against the partner.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caseUrnFor } from "../../src/domain/case.js";
import type { TestPlatform } from "../support/platform.js";
import { caseOpened, type PushBindingPlatform, startPushBindingPlatform } from "../support/push-binding.js";
import { RABBITMQ_URL, deleteQueue, publishToQueue, rabbitmqForTests } from "../support/rabbitmq.js";
import { json } from "../support/responses.js";
import { push } from "../e2e/cases-fixtures.js";

const ZX = "urn:airline:ZX";
const enc = encodeURIComponent;

const broker = await rabbitmqForTests("Disruption pushes over RabbitMQ");

describe.runIf(broker.reachable)("the disruption-push input binding over RabbitMQ", () => {
  const queue = `disruption-pushes-test-${randomUUID()}`;
  const run = randomUUID().slice(0, 8);
  let p: PushBindingPlatform;
  let t: TestPlatform;
  let skyhub: string;
  let supervisor: string;
  const opened = (externalEventId: string) => caseOpened(p, externalEventId);

  beforeAll(async () => {
    p = await startPushBindingPlatform(RABBITMQ_URL, queue);
    ({ t, skyhub, supervisor } = p);
  });
  afterAll(async () => {
    await t?.close();
    await deleteQueue(queue);
  });

  it("opens one case per externalEventId as the integration, drops refused and unreadable pushes, and audits each push", async () => {
    const first = push(`bound-${run}-1`);
    await publishToQueue(queue, [
      first,
      first,
      "{not json",
      push(`bound-${run}-vq`, { airlineUrn: "urn:airline:VQ" }),
      { ...push(`bound-${run}-bad`), passengers: "none" },
      push(`bound-${run}-2`),
    ]);
    const second = await opened(`bound-${run}-2`);
    const caseUrn = await opened(`bound-${run}-1`);

    // The same externalEventId by the HTTP push answers the case the binding opened.
    const replay = await json<{ caseUrn: string }>(
      await t.call("POST", "/partner/v1/disruptions", skyhub, first),
      202,
    );
    expect(replay.caseUrn).toBe(caseUrn);

    const detail = await json<{ passengerGroups: unknown[] }>(
      await t.call("GET", `/partner/v1/cases/${enc(caseUrn)}`, skyhub),
      200,
    );
    expect(detail.passengerGroups.length).toBeGreaterThan(0);
    for (const refused of [`bound-${run}-vq`, `bound-${run}-bad`]) {
      const urn = caseUrnFor(ZX, refused);
      expect((await t.call("GET", `/partner/v1/cases/${enc(urn)}`, skyhub)).status).toBe(404);
    }
    expect(
      (
        await t.call(
          "GET",
          `/partner/v1/cases/${enc(caseUrnFor("urn:airline:VQ", `bound-${run}-vq`))}`,
          skyhub,
        )
      ).status,
    ).toBe(404);

    const trail = await json<{ items: { action: string; actorUrn: string }[] }>(
      await t.call("GET", `/v1/audit/case/${enc(caseUrn)}`, supervisor),
      200,
    );
    const byBinding = trail.items.filter((e) => e.action === "pushDisruption");
    // Two pushes by the binding and one by HTTP, all under the partner; one case.opened.
    expect(byBinding.length).toBe(3);
    expect(new Set(byBinding.map((e) => e.actorUrn))).toEqual(new Set(["urn:partner:skyhub"]));
    expect(trail.items.filter((e) => e.action === "case.opened").map((e) => e.actorUrn)).toEqual([
      "urn:partner:skyhub",
    ]);
    expect(second).not.toBe(caseUrn);
  });
});
