import { describe, expect, it } from "vitest";
import type { SubCaseLocks } from "../../src/app/sub-cases/sub-case-locks.js";
import type { OperatorPrincipal } from "../../src/app/principals.js";
import type { EventOf } from "../../src/domain/events/catalogue.js";
import { ManualClock } from "../../src/runtime/clock.js";
import { createEmbeddedRuntime } from "../../src/runtime/embedded/runtime.js";
import { MemoryCounterStore } from "../../src/runtime/memory/counter-store.js";
import { MemoryDocumentStore } from "../../src/runtime/memory/document-store.js";
import { MemoryStateStore } from "../../src/runtime/memory/state-store.js";
import { WorkflowRegistry } from "../../src/runtime/workflow-engine.js";
import { type EventMessage, REPLAY_WINDOW_MS } from "../../services/realtime/protocol.js";
import { type ChannelMember, RealtimeHub } from "../../services/realtime/realtime-hub.js";

const TENANT = "urn:airline:ZX";
const OPERATOR = "urn:user:ops-1";
const CASE = "urn:case:00000000-0000-4000-8000-000000000001";

class Member implements ChannelMember {
  readonly received: EventMessage[] = [];
  ended = false;
  readonly principal: OperatorPrincipal = {
    surface: "operator",
    actorUrn: OPERATOR,
    tenant: TENANT,
    role: "AIRPORT_OPERATOR",
    amr: ["pwd"],
    expiresAt: Number.MAX_SAFE_INTEGER,
  };
  constructor(readonly connectedAtMs: number) {}
  deliver(message: EventMessage): void {
    this.received.push(message);
  }
  async end(): Promise<void> {
    this.ended = true;
  }
}

function hubAt(clock: ManualClock): RealtimeHub {
  const runtime = createEmbeddedRuntime({
    clock,
    state: new MemoryStateStore(),
    documents: new MemoryDocumentStore(),
    counters: new MemoryCounterStore(clock),
    shutdownTimeoutMs: 100,
    actorTypes: [],
    workflows: new WorkflowRegistry(),
    subscriptions: [],
  });
  // Neither path under test releases locks.
  return new RealtimeHub(runtime, {} as SubCaseLocks);
}

function event(type: string, occurredAtMs: number, data: object): EventOf {
  return {
    id: `urn:event:${type}:${occurredAtMs}`,
    type,
    tenant: TENANT,
    occurredAt: new Date(occurredAtMs).toISOString(),
    correlationUrn: "urn:trace:test",
    caseUrn: CASE,
    data,
  } as EventOf;
}

/**
 * A replica that starts reads its stream's history first (a new consumer group on Dapr's Redis
 * Streams starts at the stream's beginning): what happened before it existed must not reach the
 * operators connected now.
 */
describe("the operator channel's fan-out and a replica's history", () => {
  it("ends a connection for a logout that happened after it opened, not for one before it", async () => {
    const clock = new ManualClock();
    const hub = hubAt(clock);
    const start = clock.now();
    const opened = new Member(start + 1_000);
    hub.connected(opened);

    await hub.fanOut(event("operator.logged-out", start + 500, { operatorUrn: OPERATOR }));
    expect(opened.ended).toBe(false);

    await hub.fanOut(event("operator.logged-out", start + 2_000, { operatorUrn: OPERATOR }));
    expect(opened.ended).toBe(true);
  });

  it("drops events from before the replica started, beyond the replay window, and keeps recent ones", async () => {
    const clock = new ManualClock();
    const hub = hubAt(clock);
    const start = clock.now();
    const member = new Member(start);
    hub.connected(member);
    hub.join(CASE, member);

    await hub.fanOut(event("case.amended", start - REPLAY_WINDOW_MS - 1, { caseUrn: CASE, status: "OPEN" }));
    expect(member.received).toEqual([]);
    expect((await hub.updates.replay(CASE, { since: new Date(0).toISOString() })).messages).toEqual([]);

    await hub.fanOut(event("case.amended", start - 1_000, { caseUrn: CASE, status: "OPEN" }));
    expect(member.received.map((m) => m.event)).toEqual(["case:updated"]);
    expect((await hub.updates.replay(CASE, { since: new Date(0).toISOString() })).messages).toHaveLength(1);
  });
});
