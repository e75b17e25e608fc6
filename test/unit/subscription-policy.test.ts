import { describe, expect, it } from "vitest";
import { type DomainEvent, topicFor } from "../../src/domain/domain-event.js";
import { DomainError } from "../../src/domain/domain-error.js";
import { ManualClock } from "../../src/runtime/clock.js";
import {
  type DeadLetteredEvent,
  DeadLetterOffice,
  DocumentDeadLetters,
} from "../../src/runtime/dead-letters.js";
import { EmbeddedEventBus } from "../../src/runtime/embedded/event-bus.js";
import { EventBusClosedError } from "../../src/runtime/event-bus.js";
import { MemoryDocumentStore } from "../../src/runtime/memory/document-store.js";
import { StoreUnavailableError } from "../../src/runtime/store-unavailable-error.js";
import {
  EventRefused,
  type EventSubscription,
  eventSubscription,
  type FailurePolicy,
} from "../../src/runtime/subscription-policy.js";

const TENANT = "urn:airline:ZX";

function rerunRequested(id: string): DomainEvent {
  return {
    id,
    type: "allocation.rerun-requested",
    tenant: TENANT,
    occurredAt: "2026-03-01T08:00:00.000Z",
    correlationUrn: "urn:trace:1",
    caseUrn: "urn:case:1",
    data: {
      caseUrn: "urn:case:1",
      reason: "r",
      reviewItemUrn: "urn:review-item:1",
      requestedBy: "urn:user:1",
      fields: {},
    },
  };
}

function subscriptionThat(
  outcome: () => Promise<void>,
  onFailure: FailurePolicy,
  warnings: string[] = [],
): EventSubscription<"allocation.rerun-requested"> {
  return eventSubscription({
    name: "test.reruns",
    tenant: TENANT,
    types: ["allocation.rerun-requested"],
    onFailure,
    refuses: (error) => error instanceof DomainError && error.kind === "not-found",
    log: () => ({ warn: (_fields, message) => warnings.push(message) }),
    handle: outcome,
  });
}

describe("the subscription policy", () => {
  it("takes the topic of its catalogue types and answers SUCCESS for a handled event", async () => {
    const subscription = subscriptionThat(async () => {}, "retry-with-backoff");
    expect(subscription.topic).toBe(topicFor({ tenant: TENANT }));
    expect(subscription.types).toEqual(["allocation.rerun-requested"]);
    expect(await subscription.handler(rerunRequested("urn:event:1"))).toBe("SUCCESS");
  });

  it("dead-letters a refused event whatever the policy, and never acknowledges it", async () => {
    for (const policy of ["retry-with-backoff", "dead-letter"] as const) {
      const warnings: string[] = [];
      const refusing = subscriptionThat(
        async () => {
          throw new EventRefused("no such case");
        },
        policy,
        warnings,
      );
      expect(await refusing.handler(rerunRequested("urn:event:1"))).toBe("DROP");
      const recognised = subscriptionThat(
        async () => {
          throw new DomainError("not-found", "case", "No case");
        },
        policy,
        warnings,
      );
      expect(await recognised.handler(rerunRequested("urn:event:1"))).toBe("DROP");
      expect(warnings).toEqual(["event refused; dead-lettering it", "event refused; dead-lettering it"]);
    }
  });

  it("retries any other failure with backoff, or dead-letters it at once, as declared", async () => {
    const warnings: string[] = [];
    const failing = async () => {
      throw new Error("store unreachable");
    };
    expect(
      await subscriptionThat(failing, "retry-with-backoff", warnings).handler(rerunRequested("urn:event:1")),
    ).toBe("RETRY");
    expect(
      await subscriptionThat(failing, "dead-letter", warnings).handler(rerunRequested("urn:event:1")),
    ).toBe("DROP");
    expect(warnings).toEqual([
      "event handler failed; retrying with backoff",
      "event handler failed; dead-lettering it",
    ]);
  });

  it("throws a store outage to the bus, whatever the policy, instead of answering RETRY or DROP", async () => {
    for (const policy of ["retry-with-backoff", "dead-letter"] as const) {
      const outage = new StoreUnavailableError({ cause: new Error("connect ECONNREFUSED") });
      const subscription = subscriptionThat(async () => {
        throw outage;
      }, policy);
      await expect(subscription.handler(rerunRequested("urn:event:1"))).rejects.toBe(outage);
    }
  });

  it("accepts only catalogue event types and their data (checked by the typecheck)", () => {
    const declaration = {
      name: "test.types",
      tenant: TENANT,
      onFailure: "dead-letter",
      log: () => ({ warn: () => {} }),
      handle: async () => {},
    } as const;
    // @ts-expect-error an event type that is not in the catalogue
    expect(() => eventSubscription({ ...declaration, types: ["case.vanished"] })).toThrow();
    eventSubscription({
      ...declaration,
      types: ["demand.approved"],
      handle: async (event) => {
        // @ts-expect-error the handler sees the catalogue's data of its types
        void event.data.autoBook;
      },
    });
  });
});

describe("dead letters on the embedded bus", () => {
  function setUp(handle: () => Promise<void>, onFailure: FailurePolicy = "retry-with-backoff") {
    const clock = new ManualClock("2026-03-01T08:00:00Z");
    const store = new DocumentDeadLetters(new MemoryDocumentStore());
    const reported: DeadLetteredEvent[] = [];
    const bus = new EmbeddedEventBus({
      clock,
      retry: { maxAttempts: 3, initialDelayMs: 100, maxDelayMs: 1_000 },
      // Redelivery waits exactly 100 and 200 ms (no jitter).
      random: () => 1,
      deadLetters: new DeadLetterOffice({ store, clock, report: (letter) => reported.push(letter) }),
    });
    const subscription = subscriptionThat(handle, onFailure);
    bus.subscribe(subscription);
    return { clock, store, reported, bus, topic: subscription.topic };
  }

  it("keeps, counts and reports an event whose retries ran out", async () => {
    let calls = 0;
    const { clock, store, reported, bus, topic } = setUp(async () => {
      calls++;
      throw new Error("vendor down");
    });
    const published = bus.publish(topic, rerunRequested("urn:event:1"));
    await clock.advance(10_000);
    await published;
    expect(calls).toBe(3);
    const page = await store.list(TENANT, {});
    expect(page.items).toEqual([
      {
        _id: "test.reruns|urn:event:1",
        tenant: TENANT,
        deadLetteredAt: "2026-03-01T08:00:00.300Z",
        subscription: "test.reruns",
        topic,
        event: rerunRequested("urn:event:1"),
        reason: "retries-exhausted",
      },
    ]);
    expect(reported.map((r) => [r.letter.reason, r.count])).toEqual([["retries-exhausted", 1]]);
    expect(reported[0]?.message).toMatch(
      /urn:event:1 \(allocation.rerun-requested\) dead-lettered by test.reruns/,
    );
  });

  it("keeps a refused event at once, and a redelivery of it once", async () => {
    let calls = 0;
    const { store, reported, bus, topic } = setUp(async () => {
      calls++;
      throw new EventRefused("no such case");
    });
    await bus.publish(topic, rerunRequested("urn:event:1"));
    await bus.publish(topic, rerunRequested("urn:event:1"));
    await bus.publish(topic, rerunRequested("urn:event:2"));
    expect(calls).toBe(3);
    expect((await store.list(TENANT, {})).items.map((l) => [l.event.id, l.reason])).toEqual([
      ["urn:event:1", "dropped"],
      ["urn:event:2", "dropped"],
    ]);
    expect(await store.count(TENANT)).toBe(2);
    expect(reported.map((r) => r.count)).toEqual([1, 2]);
    expect(await store.count("urn:airline:VQ")).toBe(0);
  });

  const outage = () => new StoreUnavailableError({ cause: new Error("The client is closed") });

  it("waits a store outage out past the attempts, for either policy, and delivers the event once the store is back", async () => {
    for (const policy of ["retry-with-backoff", "dead-letter"] as const) {
      let calls = 0;
      // Three attempts in all: the store is away for ten tries more than that.
      const { clock, store, reported, bus, topic } = setUp(async () => {
        if (++calls <= 13) throw outage();
      }, policy);
      let delivered = false;
      const published = bus.publish(topic, rerunRequested("urn:event:1")).then(() => {
        delivered = true;
      });
      // 100, 200, 400, 800, 1600 ms, then 2 s between tries: 13 failures take 3.1 s + 8 x 2 s.
      await clock.advance(19_000);
      expect([calls, delivered]).toEqual([13, false]);
      await clock.advance(100);
      await published;
      expect(calls).toBe(14);
      expect(await store.count(TENANT)).toBe(0);
      expect(reported).toEqual([]);
    }
  });

  it("counts only the failures that are not an outage against the attempts", async () => {
    let calls = 0;
    const { clock, store, bus, topic } = setUp(async () => {
      calls++;
      throw calls % 3 === 0 ? new Error("vendor down") : outage();
    });
    const published = bus.publish(topic, rerunRequested("urn:event:1"));
    await clock.advance(60_000);
    await published;
    expect(calls).toBe(9);
    expect((await store.list(TENANT, {})).items.map((l) => l.reason)).toEqual(["retries-exhausted"]);
  });

  it("keeps a dead letter once the document store is back, however long it was away", async () => {
    const { clock, store, reported, bus, topic } = setUp(async () => {
      throw new EventRefused("no such case");
    });
    let outages = 20;
    const record = store.record.bind(store);
    store.record = async (letter, at) => {
      if (outages-- > 0) throw outage();
      return record(letter, at);
    };
    const published = bus.publish(topic, rerunRequested("urn:event:1"));
    // 100, 200, 400, 800, 1600 ms, then 2 s between the tries: 20 failures take 3.1 s + 15 x 2 s.
    await clock.advance(33_000);
    expect(await store.count(TENANT)).toBe(0);
    await clock.advance(100);
    await published;
    expect((await store.list(TENANT, {})).items.map((l) => l.reason)).toEqual(["dropped"]);
    expect(reported.map((r) => r.count)).toEqual([1]);
  });

  it("abandons a delivery waiting out an outage when the bus closes, leaving no timer", async () => {
    const { clock, store, bus, topic } = setUp(async () => {
      throw outage();
    });
    const published = bus.publish(topic, rerunRequested("urn:event:1"));
    await clock.advance(30_000);
    expect(clock.pendingTimers()).toBe(1);
    await bus.close();
    await expect(published).rejects.toBeInstanceOf(EventBusClosedError);
    expect(clock.pendingTimers()).toBe(0);
    expect(await store.count(TENANT)).toBe(0);
  });

  it("dead-letters the first failure under a dead-letter policy", async () => {
    let calls = 0;
    const { store, bus, topic } = setUp(async () => {
      calls++;
      throw new Error("unexpected");
    }, "dead-letter");
    await bus.publish(topic, rerunRequested("urn:event:1"));
    expect(calls).toBe(1);
    expect((await store.list(TENANT, {})).items.map((l) => l.reason)).toEqual(["dropped"]);
  });
});
