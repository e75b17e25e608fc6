import { describe, expect, it } from "vitest";
import { topicFor } from "../../src/domain/domain-event.js";
import { EVENT_CATALOGUE, EVENT_TYPES, eventTopic } from "../../src/domain/events/catalogue.js";
import type { ActorContext } from "../../src/runtime/actor-runtime.js";
import { ManualClock } from "../../src/runtime/clock.js";
import { publishEvent } from "../../src/runtime/event-bus.js";
import { EmbeddedEventBus } from "../../src/runtime/embedded/event-bus.js";

const TENANT = "urn:airline:ZX";

describe("the event catalogue", () => {
  it('gives partners the event types of spec 6.1, the "also emitted" ones included, with their scopes, and nothing else', () => {
    const forPartners = Object.fromEntries(
      EVENT_TYPES.filter((type) => EVENT_CATALOGUE[type].partnerScopes.length > 0).map((type) => [
        type,
        EVENT_CATALOGUE[type].partnerScopes,
      ]),
    );
    expect(forPartners).toEqual({
      "case.opened": ["cases.events.subscribe", "disruptions.events.subscribe"],
      "case.amended": ["cases.events.subscribe"],
      "subcase.processing": ["cases.events.subscribe"],
      "subcase.offer-ready": ["cases.events.subscribe"],
      "subcase.resolved": ["cases.events.subscribe"],
      "subcase.declined": ["cases.events.subscribe"],
      "subcase.failed": ["cases.events.subscribe"],
      "subcase.compensation-failed": ["cases.events.subscribe"],
      "case.resolved": ["cases.events.subscribe"],
      "voucher.issued": ["vouchers.read"],
      "voucher.amended": ["vouchers.read"],
      "disruption.detected": ["disruptions.events.subscribe"],
      "wallet.card-issued": ["wallet.events.subscribe"],
      "wallet.card-tx": ["wallet.events.subscribe"],
      "wallet.card-cancelled": ["wallet.events.subscribe"],
    });
  });

  it("sends every event type on its tenant's topic", () => {
    for (const type of EVENT_TYPES) expect(eventTopic(type, TENANT)).toBe(topicFor({ tenant: TENANT }));
  });

  it("lets actors emit only its event types, with their data (checked by the typecheck)", () => {
    const emitted: unknown[] = [];
    const context = { emit: (event: unknown) => emitted.push(event) } as unknown as ActorContext;
    const envelope = { tenant: TENANT, correlationUrn: "urn:trace:1" };
    context.emit({ ...envelope, type: "allocation.batch-due", data: { tenant: TENANT, airport: "FRA" } });
    // @ts-expect-error an event type that is not in the catalogue
    context.emit({ ...envelope, type: "case.vanished", data: {} });
    // @ts-expect-error a catalogue type with another type's data
    context.emit({ ...envelope, type: "allocation.batch-due", data: { caseUrn: "urn:case:1" } });
    expect(emitted).toHaveLength(3);
  });

  it("publishes an event straight to the bus on its catalogue topic", async () => {
    const bus = new EmbeddedEventBus({ clock: new ManualClock() });
    const seen: string[] = [];
    bus.subscribe({
      name: "watch",
      topic: topicFor({ tenant: TENANT }),
      handler: async (event) => {
        seen.push(event.type);
        return "SUCCESS";
      },
    });
    const event = {
      id: "urn:event:1",
      tenant: TENANT,
      occurredAt: "2026-03-01T08:00:00.000Z",
      correlationUrn: "urn:trace:1",
    };
    await publishEvent(bus, { ...event, type: "operator.logged-out", data: { operatorUrn: "urn:user:1" } });
    // @ts-expect-error publishing is typed by the catalogue too, and the bus has no topic for it
    expect(() => publishEvent(bus, { ...event, type: "operator.vanished", data: {} })).toThrow();
    expect(seen).toEqual(["operator.logged-out"]);
  });
});
