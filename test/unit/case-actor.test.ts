import { describe, expect, it } from "vitest";
import { CaseActor } from "../../actors/CaseActor.js";
import { OpenCase } from "../../src/app/open-case.js";
import { caseUrnFor } from "../../src/domain/case.js";
import type { DomainEvent } from "../../src/domain/domain-event.js";
import { topicFor } from "../../src/domain/domain-event.js";
import { ManualClock, settle } from "../../src/runtime/clock.js";
import { EmbeddedActorRuntime } from "../../src/runtime/embedded/actor-runtime.js";
import { EmbeddedEventBus } from "../../src/runtime/embedded/event-bus.js";
import { MemoryStateStore } from "../../src/runtime/memory/state-store.js";

const tenant = "urn:airline:ZX";

function command(externalEventId = "evt-1", overrides = {}) {
  return {
    tenant,
    externalEventId,
    flight: {
      number: "ZX100",
      origin: "JFK",
      destination: "LHR",
      scheduledDeparture: "2026-11-21T22:00:00Z",
      status: "CANCELLED",
    },
    nextFlight: { number: "ZX102", scheduledDeparture: "2026-11-22T18:00:00Z" },
    passengerGroups: [
      {
        id: "ABC123",
        pnr: "ABC123",
        passengers: [
          { id: "p1", lastName: "Rivera" },
          { id: "p2", lastName: "Rivera" },
        ],
      },
      { id: "XYZ789", pnr: "XYZ789", passengers: [{ id: "p3", lastName: "Okafor" }] },
    ],
    openedBy: "urn:user:ops-1",
    correlationUrn: "urn:trace:abc",
    ...overrides,
  };
}

async function setup() {
  const clock = new ManualClock("2026-11-21T23:00:00Z");
  const bus = new EmbeddedEventBus({ clock });
  const actors = new EmbeddedActorRuntime({ store: new MemoryStateStore(), bus, clock });
  actors.register(CaseActor);
  const opened: DomainEvent[] = [];
  bus.subscribe({
    name: "opened",
    topic: topicFor({ tenant }),
    types: ["case.opened"],
    handler: async (event) => {
      opened.push(event);
      return "SUCCESS";
    },
  });
  await actors.start();
  return { actors, opened, openCase: new OpenCase(actors) };
}

describe("CaseActor.open", () => {
  it("opens an OPEN case with a URN derived from tenant and externalEventId and emits case.opened", async () => {
    const { openCase, opened } = await setup();
    const result = await openCase.execute(command());
    expect(result.created).toBe(true);
    expect(result.case).toMatchObject({
      urn: caseUrnFor(tenant, "evt-1"),
      status: "OPEN",
      tenant,
      openedAt: "2026-11-21T23:00:00.000Z",
      version: 1,
    });
    expect(result.case.urn).toMatch(/^urn:case:[0-9a-f-]{36}$/);
    await settle();
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({
      type: "case.opened",
      tenant,
      caseUrn: result.case.urn,
      correlationUrn: "urn:trace:abc",
      data: { status: "OPEN", groupCount: 2, passengerCount: 3, externalEventId: "evt-1" },
    });
  });

  it("returns the same case for 100 concurrent replays and emits case.opened once", async () => {
    const { openCase, opened } = await setup();
    const results = await Promise.all(Array.from({ length: 100 }, () => openCase.execute(command("evt-2"))));
    expect(new Set(results.map((r) => r.case.urn)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    await settle();
    expect(opened).toHaveLength(1);
  });

  it("keeps tenants apart: the same externalEventId at two airlines opens two cases", async () => {
    const { openCase } = await setup();
    const a = await openCase.execute(command("evt-3"));
    const b = await openCase.execute(command("evt-3", { tenant: "urn:airline:QV" }));
    expect(a.case.urn).not.toBe(b.case.urn);
    expect(b.created).toBe(true);
  });

  it("reads back the opened case", async () => {
    const { actors, openCase } = await setup();
    const { case: opened } = await openCase.execute(command("evt-4"));
    const id = opened.urn.slice("urn:case:".length);
    expect(await actors.invoke(CaseActor, id, "get")).toEqual(opened);
    expect(await actors.invoke(CaseActor, "unknown", "get")).toBeUndefined();
  });
});
