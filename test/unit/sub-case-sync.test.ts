import { describe, expect, it } from "vitest";
import { CaseActor } from "../../actors/CaseActor.js";
import { SubCaseActor, subCaseActorIdFor } from "../../actors/SubCaseActor.js";
import {
  SUB_CASE_COLLECTION,
  SubCaseIndex,
  type SubCaseIndexDoc,
} from "../../src/app/sub-cases/sub-case-index.js";
import { SyncSubCases } from "../../src/app/sub-cases/sync-sub-cases.js";
import { caseIdFor } from "../../src/domain/case.js";
import { subCaseUrnFor } from "../../src/domain/sub-case.js";
import { MemoryDocumentStore } from "../../src/runtime/memory/document-store.js";
import { startActorStage } from "./actor-stage.js";

const tenant = "urn:airline:ZX";

async function setup() {
  const { runtime: actors } = await startActorStage([CaseActor, SubCaseActor], tenant);
  const documents = new MemoryDocumentStore();
  const index = new SubCaseIndex(documents);
  const { snapshot } = await actors.invoke(CaseActor, caseIdFor(tenant, "evt-sync"), "open", {
    tenant,
    externalEventId: "evt-sync",
    flight: {
      number: "ZX100",
      origin: "BOS",
      destination: "LHR",
      scheduledDeparture: "2026-11-21T22:00:00Z",
    },
    passengerGroups: [
      { id: "ABC123", passengers: [{ id: "p1", lastName: "Rivera" }] },
      { id: "XYZ789", passengers: [{ id: "p2", lastName: "Okafor" }] },
    ],
    openedBy: "urn:user:ops",
    correlationUrn: "urn:trace:open",
    intake: { source: "operator" },
  });
  const caseUrn = snapshot.case.urn;
  return {
    actors,
    documents,
    index,
    caseUrn,
    caseId: caseIdFor(tenant, "evt-sync"),
    sync: new SyncSubCases(actors, index),
  };
}

describe("SyncSubCases", () => {
  it("opens one sub-case per group, at the case's airport, and indexes them; running again changes nothing", async () => {
    const { sync, caseUrn, documents } = await setup();
    const first = await sync.execute(caseUrn, "urn:trace:a");
    expect(first?.active.map((v) => v.subCaseUrn)).toEqual([
      subCaseUrnFor(caseUrn, "ABC123"),
      subCaseUrnFor(caseUrn, "XYZ789"),
    ]);
    const docs = await documents.collection<SubCaseIndexDoc>(SUB_CASE_COLLECTION).findAll({});
    expect(docs).toHaveLength(2);
    expect(docs[0]).toEqual({
      _id: subCaseUrnFor(caseUrn, "ABC123"),
      tenant,
      caseUrn,
      groupId: "ABC123",
      airport: "BOS",
      status: "OPEN",
      version: 1,
      revision: 1,
      lockedBy: null,
      lockExpiresAt: null,
      retiredAt: null,
      caseClosedAt: null,
      offer: null,
      answer: null,
      sagaInstanceId: null,
      vendorErrorCode: null,
      updatedAt: "2026-11-21T23:00:00.000Z",
    });
    const again = await sync.execute(caseUrn, "urn:trace:b");
    expect(again?.active.map((v) => v.revision)).toEqual([1, 1]);
    expect(again?.retired).toEqual([]);
  });

  it("retires the sub-case of a group that is no longer in the case", async () => {
    const { sync, caseUrn, actors, index } = await setup();
    const departed = await actors.invoke(SubCaseActor, subCaseActorIdFor(caseUrn, "OLD999"), "open", {
      caseUrn,
      groupId: "OLD999",
      tenant,
      airport: "BOS",
      correlationUrn: "urn:trace:old",
    });
    await index.record(departed);
    const result = await sync.execute(caseUrn, "urn:trace:a");
    expect(result?.retired.map((v) => v.groupId)).toEqual(["OLD999"]);
    expect((await index.activeOfCase(caseUrn)).map((d) => d.groupId)).toEqual(["ABC123", "XYZ789"]);
    expect((await index.get(departed.subCaseUrn))?.retiredAt).toEqual(expect.any(String));
  });

  it("answers undefined for a case that does not exist", async () => {
    const { sync } = await setup();
    expect(
      await sync.execute("urn:case:00000000-0000-0000-0000-000000000000", "urn:trace:a"),
    ).toBeUndefined();
    expect(await sync.execute("not-a-urn", "urn:trace:a")).toBeUndefined();
  });

  it("keeps the newest revision in the index whatever order copies arrive in", async () => {
    const { sync, caseUrn, actors, index } = await setup();
    await sync.execute(caseUrn, "urn:trace:a");
    const id = subCaseActorIdFor(caseUrn, "ABC123");
    const locked = await actors.invoke(SubCaseActor, id, "lock", {
      by: "urn:user:alice",
      ttlMs: 60_000,
      correlationUrn: "urn:trace:l",
    });
    const older = await actors.invoke(SubCaseActor, id, "get");
    await index.record(locked.view);
    await index.record({ ...older!, revision: 1, lockedBy: null });
    expect((await index.get(locked.view.subCaseUrn))?.lockedBy).toBe("urn:user:alice");
    expect(await index.lockedBy(tenant, "urn:user:alice")).toHaveLength(1);
  });

  it("freezes the sub-cases of a closed case, dropping their locks, and thaws them when it reopens", async () => {
    const { sync, caseUrn, caseId, actors, index } = await setup();
    await sync.execute(caseUrn, "urn:trace:a");
    const id = subCaseActorIdFor(caseUrn, "ABC123");
    const lock = () =>
      actors.invoke(SubCaseActor, id, "lock", {
        by: "urn:user:alice",
        ttlMs: 60_000,
        correlationUrn: "urn:trace:l",
      });
    await lock();
    const acting = {
      by: "urn:user:admin",
      correlationUrn: "urn:trace:c",
      reason: "all checked out",
      role: "ADMIN" as const,
    };
    await actors.invoke(CaseActor, caseId, "close", acting);
    const closed = await sync.execute(caseUrn, "urn:trace:c");
    expect(closed?.active.map((v) => [v.caseClosedAt !== null, v.lockedBy])).toEqual([
      [true, null],
      [true, null],
    ]);
    expect(await index.lockedBy(tenant, "urn:user:alice")).toEqual([]);
    await expect(lock()).rejects.toMatchObject({ code: "case-closed" });

    await actors.invoke(CaseActor, caseId, "reopen", acting);
    const reopened = await sync.execute(caseUrn, "urn:trace:r");
    expect(reopened?.active.map((v) => v.caseClosedAt)).toEqual([null, null]);
    expect((await lock()).lock.fencingToken).toBe(2);
  });
});
