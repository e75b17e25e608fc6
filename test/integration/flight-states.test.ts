import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  FLIGHT_STATES_COLLECTION,
  type FlightStateAssessment,
} from "../../src/app/flight-states/flight-state-intake.js";
import type { DomainEvent } from "../../src/domain/domain-event.js";
import { topicFor } from "../../src/domain/domain-event.js";
import type { DisruptionDetectedData } from "../../src/domain/events/disruption.js";
import type { DocumentStore } from "../../src/runtime/document-store.js";
import { TOKENS } from "../../src/runtime/tokens.js";
import { recordEvents } from "../support/event-recorder.js";
import { type TestPlatform, startTestPlatform } from "../support/platform.js";
import { RABBITMQ_URL, deleteQueue, publishToQueue, rabbitmqForTests } from "../support/rabbitmq.js";
import { json } from "../support/responses.js";

type Detected = DomainEvent<DisruptionDetectedData>;
const enc = encodeURIComponent;

function flightState(messageId: string, airline: string, changes: Record<string, unknown>) {
  return {
    messageId,
    airline,
    observedAt: "2026-11-21T18:00:00Z",
    flight: {
      number: airline.endsWith("ZX") ? "ZX500" : "VQ9",
      origin: airline.endsWith("ZX") ? "JFK" : "LHR",
      destination: "MAD",
      scheduledDeparture: "2026-11-21T22:00:00Z",
      status: "SCHEDULED",
    },
    delayMinutes: 0,
    ...changes,
  };
}

/** Waits until the platform has assessed `count` flight-state messages (the consumer's record). */
async function assessed(t: TestPlatform, count: number): Promise<void> {
  const documents = t.platform.container.resolve<DocumentStore>(TOKENS.documents);
  const deadline = Date.now() + 15_000;
  while ((await documents.collection(FLIGHT_STATES_COLLECTION).count()) < count) {
    if (Date.now() > deadline) throw new Error(`fewer than ${count} flight states assessed`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function listen(t: TestPlatform, tenant: string): Detected[] {
  return recordEvents(t.platform.runtime.bus, {
    name: `test-disruption-detected-${tenant}`,
    topic: topicFor({ tenant }),
    types: ["disruption.detected"],
  }) as Detected[];
}

const broker = await rabbitmqForTests("Flight-state stream over RabbitMQ");

describe.runIf(broker.reachable)("the flight-state stream over RabbitMQ (spec 6.3, 6.1)", () => {
  const queue = `flight-states-test-${randomUUID()}`;
  let t: TestPlatform;
  let zx: Detected[];
  let vq: Detected[];

  beforeAll(async () => {
    t = await startTestPlatform({
      env: {
        FLIGHT_STATE_SOURCE: RABBITMQ_URL,
        FLIGHT_STATE_QUEUE: queue,
        DEMO_POLICIES: "off",
        DEMAND_ON_INTAKE: "off",
      },
    });
    zx = listen(t, "urn:airline:ZX");
    vq = listen(t, "urn:airline:VQ");
    const supervisor = await t.operatorToken("supervisor@zx.demo");
    const policy = await json<{ urn: string }>(
      await t.call("POST", "/v1/policies", supervisor, {
        name: "JFK, flagged early",
        context: { airport: "JFK", airline: "ZX" },
        prediction: { threshold: 0.5, draftCase: true },
      }),
      201,
    );
    await json(
      await t.call(
        "POST",
        `/v1/policies/${enc(policy.urn)}/activate`,
        await t.operatorToken("admin@zx.demo"),
      ),
      200,
    );
  });
  afterAll(async () => {
    await t?.close();
    await deleteQueue(queue);
  });

  it("emits disruption.detected above the policy threshold with a draft case, once per message, and the operator opens the draft", async () => {
    const storm = flightState("m-storm", "urn:airline:ZX", {
      flight: {
        number: "ZX500",
        origin: "JFK",
        destination: "MAD",
        scheduledDeparture: "2026-11-21T22:00:00Z",
        status: "DELAYED",
      },
      delayMinutes: 120,
      weatherCodes: ["TSRA"],
      atcCodes: ["GROUND_DELAY_PROGRAM"],
    });
    await publishToQueue(queue, [
      flightState("m-quiet", "urn:airline:ZX", {}),
      storm,
      storm,
      "{not json",
      { messageId: "m-bad", airline: "urn:airline:ZX" },
      flightState("m-stranger", "urn:airline:QQ", {
        flight: {
          number: "QQ1",
          origin: "JFK",
          destination: "MAD",
          scheduledDeparture: "2026-11-21T22:00:00Z",
          status: "CANCELLED",
        },
      }),
      flightState("m-cancelled", "urn:airline:VQ", {
        flight: {
          number: "VQ9",
          origin: "LHR",
          destination: "MAD",
          scheduledDeparture: "2026-11-21T22:00:00Z",
          status: "CANCELLED",
        },
      }),
    ]);
    await assessed(t, 3);
    // In order: the unreadable, invalid and unknown-airline messages came before the last one and left nothing.
    const documents = t.platform.container.resolve<DocumentStore>(TOKENS.documents);
    expect(await documents.collection(FLIGHT_STATES_COLLECTION).count()).toBe(3);

    expect(zx).toHaveLength(1);
    const [detected] = zx;
    expect(detected).toMatchObject({
      type: "disruption.detected",
      tenant: "urn:airline:ZX",
      data: {
        flight: { number: "ZX500", origin: "JFK", status: "DELAYED" },
        threshold: 0.5,
        reason: "DELAY",
        messageId: "m-storm",
        draftCase: {
          externalEventId: "predicted-ZX500-2026-11-21T22:00:00Z",
          flight: { number: "ZX500", origin: "JFK", destination: "MAD" },
          passengerGroups: [],
        },
      },
    });
    expect(detected!.data.probability).toBeGreaterThan(0.5);
    expect(detected!.data.reasons!.map((r) => r.cause)).toEqual(["DELAY", "WEATHER", "ATC"]);
    // No policy at LHR: the default threshold, and no draft.
    expect(vq).toEqual([
      expect.objectContaining({
        data: expect.objectContaining({ probability: 1, threshold: 0.7, reason: "CANCELLED" }),
      }),
    ]);
    expect(vq[0]!.data.draftCase).toBeUndefined();

    // Operators find the flagged flight and its draft on the operator API.
    const listed = await json<{ items: Array<{ messageId: string; eventUrn: string; draftCase: unknown }> }>(
      await t.call("GET", "/v1/disruptions/detected", await t.operatorToken("operator.jfk@zx.demo")),
      200,
    );
    expect(listed.items).toEqual([
      expect.objectContaining({
        messageId: "m-storm",
        eventUrn: detected!.id,
        draftCase: detected!.data.draftCase,
      }),
    ]);
    const supervisor = await t.operatorToken("supervisor@zx.demo");
    const opened = await json<{ urn: string; status: string }>(
      await t.call("POST", "/v1/cases", supervisor, listed.items[0]!.draftCase),
      201,
    );
    expect(opened.status).toBe("OPEN");
    const again = await t.call("POST", "/v1/cases", supervisor, detected!.data.draftCase);
    expect(((await again.json()) as { urn: string }).urn).toBe(opened.urn);
  });

  it("keeps consuming: a later message is assessed and a redelivered one is not announced again", async () => {
    const before = zx.length;
    await publishToQueue(queue, [
      flightState("m-later", "urn:airline:ZX", { delayMinutes: 360, atcCodes: ["GROUND_STOP"] }),
      flightState("m-storm", "urn:airline:ZX", { delayMinutes: 360 }),
    ]);
    await assessed(t, 4);
    expect(zx.slice(before).map((e) => e.data.messageId)).toEqual(["m-later"]);
  });
});

describe("the recorded flight-state stream (FLIGHT_STATE_SOURCE=file:...)", () => {
  let t: TestPlatform;

  beforeAll(async () => {
    t = await startTestPlatform({
      env: { FLIGHT_STATE_SOURCE: "file:src/demo/flight-states.jsonl", DEMAND_ON_INTAKE: "off" },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("replays the demo recording: the stormy and cancelled flights are detected, the quiet and departed ones not", async () => {
    await assessed(t, 6);
    // The replay runs as the platform starts, before a test could subscribe: read what was recorded.
    const documents = t.platform.container.resolve<DocumentStore>(TOKENS.documents);
    const all = await documents
      .collection<FlightStateAssessment & { _id: string }>(FLIGHT_STATES_COLLECTION)
      .findAll({}, { sort: { messageId: 1 } });
    expect(
      all.map((a) => [a.messageId, a.flight.number, a.eventUrn !== undefined, a.reasons[0]?.cause ?? null]),
    ).toEqual([
      ["demo-1", "ZX100", false, null],
      ["demo-2", "ZX100", true, "DELAY"],
      ["demo-3", "ZX210", false, "DELAY"],
      ["demo-4", "ZX330", true, "DELAY"],
      ["demo-5", "VQ7", true, "CANCELLED"],
      ["demo-6", "VQ12", false, null],
    ]);
  });

  it("lists the flagged flights to operators of the airline, an airport-scoped one only its airport's", async () => {
    const flagged = async (who: string) =>
      (
        await json<{ items: Array<{ flight: { number: string }; draftCase?: unknown }> }>(
          await t.call("GET", "/v1/disruptions/detected", await t.operatorToken(who)),
          200,
        )
      ).items
        .map((item) => item.flight.number)
        .sort();
    expect(await flagged("operator@zx.demo")).toEqual(["ZX100", "ZX330"]);
    expect(await flagged("operator.jfk@zx.demo")).toEqual(["ZX100"]);
    expect(await flagged("operator@vq.demo")).toEqual(["VQ7"]);
    const page = await json<{ items: unknown[]; hasMore: boolean; nextCursor: string }>(
      await t.call("GET", "/v1/disruptions/detected?limit=1", await t.operatorToken("operator@zx.demo")),
      200,
    );
    expect(page).toMatchObject({ items: [expect.anything()], hasMore: true });
    expect((await t.call("GET", "/v1/disruptions/detected")).status).toBe(401);
  });
});
