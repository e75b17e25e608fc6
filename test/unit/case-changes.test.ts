import { describe, expect, it } from "vitest";
import type { CaseChangeResult, CaseSnapshot } from "../../actors/CaseActor.js";
import type { AuditLog } from "../../src/app/audit-log.js";
import { CaseChanges, caseRefOf } from "../../src/app/cases/case-changes.js";
import type { CaseProjection } from "../../src/app/cases/case-projection.js";
import type { ActorRuntime } from "../../src/runtime/actor-runtime.js";
import { operatorPrincipal } from "../support/principals.js";
import { caseIn } from "./case-fixture.js";

/** CaseChanges over an actor runtime that answers snapshots of `record` and counts what it was asked. */
function changesOf(snapshot: CaseSnapshot) {
  const asked: string[] = [];
  const actors = {
    async invoke(_type: unknown, _id: string, method: string) {
      asked.push(method);
      return snapshot;
    },
  } as unknown as ActorRuntime;
  const projection = { apply: async () => undefined } as unknown as CaseProjection;
  const audit = { append: async () => undefined } as unknown as AuditLog;
  return { asked, changes: new CaseChanges(actors, projection, audit) };
}

const record = caseIn();
const snapshot: CaseSnapshot = {
  case: record,
  intake: {
    source: "operator",
    receivedBy: "urn:user:s",
    receivedAt: record.openedAt,
    correlationUrn: "urn:trace:a",
  },
  reservations: [],
  localResidentGroups: [],
  reviewItems: [],
  passengerPnrs: {},
};

describe("case changes", () => {
  it("runs a platform flow's command on the case without reading the case first", async () => {
    const { asked, changes } = changesOf(snapshot);
    const ids: string[] = [];
    await changes.change({
      caseUrn: record.urn,
      correlationUrn: "urn:trace:a",
      command: async (id): Promise<CaseChangeResult> => {
        ids.push(id);
        return { snapshot };
      },
    });
    expect(asked).toEqual([]);
    expect(ids).toEqual([record.urn.slice("urn:case:".length)]);
  });

  it("refuses a caller of another airline before the command runs", async () => {
    const { changes } = changesOf(snapshot);
    let ran = false;
    const change = changes.change({
      caseUrn: record.urn,
      caller: operatorPrincipal("OPS_SUPERVISOR", { tenant: "urn:airline:VQ" }),
      correlationUrn: "urn:trace:a",
      command: async (): Promise<CaseChangeResult> => {
        ran = true;
        return { snapshot };
      },
    });
    await expect(change).rejects.toThrow();
    expect(ran).toBe(false);
  });
});

describe("a case URN as the case it names", () => {
  it("gives the same case for either form of spec 2, and 404 for a URN that names none", () => {
    expect(caseRefOf("urn:case:c-1")).toEqual({ id: "c-1", urn: "urn:case:c-1" });
    expect(caseRefOf("urn:zx:case:c-1")).toEqual({ id: "c-1", urn: "urn:case:c-1" });
    for (const named of [
      "urn:case:",
      "urn:case:c-1:",
      "urn:case:c-1:status:open",
      "urn:hotel:c-1",
      "case:c-1",
    ]) {
      expect(() => caseRefOf(named), named).toThrow(expect.objectContaining({ code: "case-not-found" }));
    }
  });
});
