import { describe, expect, it } from "vitest";
import { CaseResolutionActor } from "../../actors/CaseResolutionActor.js";
import { settle } from "../../src/runtime/clock.js";
import { startActorStage } from "./actor-stage.js";

const tenant = "urn:airline:ZX";
const caseUrn = "urn:case:11111111-2222-3333-4444-555555555555";
const sub = (groupId: string, status: string) => ({ subCaseUrn: `urn:sub-case:${groupId}`, groupId, status });

async function stage() {
  const { runtime, events } = await startActorStage(CaseResolutionActor, tenant);
  const settleCase = (subCases: ReturnType<typeof sub>[]) =>
    (runtime.invoke as any)(CaseResolutionActor, "11111111-2222-3333-4444-555555555555", "settle", {
      tenant,
      caseUrn,
      subCases,
      correlationUrn: "urn:trace:settle",
    }) as Promise<{ resolved: boolean; published: boolean }>;
  const resolvedEvents = async () => {
    await settle();
    return events.filter((e) => e.type === "case.resolved");
  };
  return { settleCase, resolvedEvents };
}

describe("CaseResolutionActor (spec 3.3 case.resolved)", () => {
  it("waits while a sub-case is not terminal, then publishes case.resolved once", async () => {
    const { settleCase, resolvedEvents } = await stage();
    expect(await settleCase([sub("A", "RESOLVED"), sub("B", "OFFER_READY")])).toEqual({
      resolved: false,
      published: false,
    });
    expect(await settleCase([sub("A", "RESOLVED"), sub("B", "COMPENSATION_FAILED")])).toEqual({
      resolved: true,
      published: true,
    });
    expect(await settleCase([sub("A", "RESOLVED"), sub("B", "DECLINED")])).toEqual({
      resolved: true,
      published: false,
    });
    const published = await resolvedEvents();
    expect(published).toHaveLength(1);
    expect(published[0]).toMatchObject({
      caseUrn,
      data: { caseUrn, subCases: [sub("A", "RESOLVED"), sub("B", "COMPENSATION_FAILED")] },
    });
  });

  it("publishes once of many settles at the same time, and never for a case without sub-cases", async () => {
    const { settleCase, resolvedEvents } = await stage();
    expect(await settleCase([])).toEqual({ resolved: false, published: false });
    const all = await Promise.all(Array.from({ length: 20 }, () => settleCase([sub("A", "DECLINED")])));
    expect(all.filter((r) => r.published)).toHaveLength(1);
    expect(await resolvedEvents()).toHaveLength(1);
  });

  it("does not count FAILED or PROCESSING as done", async () => {
    const { settleCase } = await stage();
    for (const status of ["OPEN", "PROCESSING", "OFFER_READY", "FAILED"]) {
      expect((await settleCase([sub("A", status)])).resolved).toBe(false);
    }
  });
});
