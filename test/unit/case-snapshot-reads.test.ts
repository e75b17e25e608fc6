import { describe, expect, it } from "vitest";
import { CaseActor } from "../../actors/CaseActor.js";
import type { AuditLog } from "../../src/app/audit-log.js";
import { CaseChanges } from "../../src/app/cases/case-changes.js";
import type { CaseProjection } from "../../src/app/cases/case-projection.js";
import { caseIdFor, caseUrnFor } from "../../src/domain/case.js";
import { ManualClock } from "../../src/runtime/clock.js";
import { EmbeddedActorRuntime } from "../../src/runtime/embedded/actor-runtime.js";
import { EmbeddedEventBus } from "../../src/runtime/embedded/event-bus.js";
import { MemoryStateStore } from "../../src/runtime/memory/state-store.js";
import type { StateOperation } from "../../src/runtime/state-store.js";
import { deferred } from "../support/deferred.js";
import { operatorPrincipal } from "../support/principals.js";
import { opening } from "./case-fixture.js";

const tenant = "urn:airline:ZX";

/** A state store whose commits the test can hold, to catch a case change half-way. */
class HeldStateStore extends MemoryStateStore {
  hold: Promise<void> | undefined;

  override async transact(operations: StateOperation[]): Promise<void> {
    if (this.hold) await this.hold;
    return super.transact(operations);
  }
}

async function setup() {
  const clock = new ManualClock("2026-11-21T23:00:00Z");
  const store = new HeldStateStore();
  const actors = new EmbeddedActorRuntime({ store, bus: new EmbeddedEventBus({ clock }), clock });
  actors.register(CaseActor);
  await actors.start();
  const id = caseIdFor(tenant, "evt-1");
  await actors.invoke(CaseActor, id, "open", opening({ tenant }));
  // Reading a case uses neither the projection nor the audit log.
  const changes = new CaseChanges(actors, {} as CaseProjection, {} as AuditLog);
  return { actors, store, id, urn: caseUrnFor(tenant, "evt-1"), changes };
}

describe("reading a case (the case detail's snapshot)", () => {
  it("answers with the last committed change while another is in progress, and with that one once it is committed", async () => {
    const { actors, store, id, urn, changes } = await setup();
    const caller = operatorPrincipal("AIRPORT_OPERATOR");
    const opened = await changes.snapshot(urn, caller);
    const held = deferred();
    store.hold = held.promise;
    const recording = actors.invoke(CaseActor, id, "recordReservationStatus", {
      reservationUrn: "urn:reservation:r1",
      groupId: "ABC123",
      status: "CONFIRMED",
      correlationUrn: "urn:trace:booking",
    });
    // The reservation's turn holds the case actor until its commit goes through: the read does not wait for it.
    const during = await changes.snapshot(urn, caller);
    expect(during.case.version).toBe(opened.case.version);
    expect(during.reservations).toEqual([]);
    held.resolve();
    await recording;
    const after = await changes.snapshot(urn, caller);
    expect(after.case.version).toBeGreaterThan(opened.case.version);
    expect(after.reservations).toEqual([
      expect.objectContaining({ reservationUrn: "urn:reservation:r1", groupId: "ABC123", status: "CONFIRMED" }),
    ]);
    await actors.close();
  });

  it("refuses another airline's operator and an operator scoped to another airport", async () => {
    const { actors, urn, changes } = await setup();
    await expect(
      changes.snapshot(urn, operatorPrincipal("ADMIN", { tenant: "urn:airline:VQ" })),
    ).rejects.toMatchObject({ kind: "forbidden", code: "tenant-mismatch" });
    await expect(
      changes.snapshot(urn, operatorPrincipal("AIRPORT_OPERATOR", { airport: "BOS" })),
    ).rejects.toMatchObject({ kind: "forbidden", code: "airport-mismatch" });
    expect((await changes.snapshot(urn, operatorPrincipal("AIRPORT_OPERATOR", { airport: "JFK" }))).case.urn).toBe(
      urn,
    );
    await actors.close();
  });
});
