import { describe, expect, it } from "vitest";
import { SubCaseActor, subCaseActorIdFor } from "../../actors/SubCaseActor.js";
import { AnswerOffer } from "../../src/app/sub-cases/answer-offer.js";
import { SubCaseIndex } from "../../src/app/sub-cases/sub-case-index.js";
import { subCaseUrnFor } from "../../src/domain/sub-case.js";
import { settle } from "../../src/runtime/clock.js";
import { MemoryDocumentStore } from "../../src/runtime/memory/document-store.js";
import { startActorStage } from "./actor-stage.js";

const tenant = "urn:airline:ZX";
const caseUrn = "urn:case:11111111-2222-3333-4444-555555555555";
const groupId = "ABC123";
const passenger = "urn:passenger:p1";
const run = "sub-case-saga-run-1";
const offer = {
  reservationUrn: "urn:reservation:r1",
  voucherUrn: "urn:voucher:v1",
  answerBy: "2026-11-22T09:00:00.000Z",
};

/** A sub-case whose saga run offered a stay, and AnswerOffer over it with a recording engine. */
async function offered() {
  const stage = await startActorStage(SubCaseActor, tenant);
  const id = subCaseActorIdFor(caseUrn, groupId);
  const invoke = (method: string, arg: unknown) =>
    (stage.runtime.invoke as any)(SubCaseActor, id, method, arg);
  await invoke("open", { caseUrn, groupId, tenant, airport: "JFK", correlationUrn: "urn:trace:open" });
  await invoke("startRun", { sagaInstanceId: run, correlationUrn: "urn:trace:run" });
  await invoke("readyOffer", { sagaInstanceId: run, correlationUrn: "urn:trace:run", offer });
  const index = new SubCaseIndex(new MemoryDocumentStore());
  const answers = new AnswerOffer(stage.runtime, index);
  const request = (n = 0) => ({ caseUrn, groupId, by: passenger, correlationUrn: `urn:trace:answer-${n}` });
  const typesOf = async (type: string) => {
    await settle();
    return stage.events.filter((e) => e.type === type);
  };
  return { ...stage, answers, index, request, typesOf };
}

/** What the answer was refused with (a DomainError, or its shape when it crossed an actor call). */
async function refusal(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected a refusal");
    },
    (error: unknown) => error,
  );
}

describe("AnswerOffer", () => {
  it("accepts: RESOLVED with the answer on the view, subcase.resolved once, the answer and its run on the event", async () => {
    const { answers, request, typesOf, index } = await offered();
    const first = await answers.accept(request(1));
    expect(first.replayed).toBe(false);
    expect(first.view).toMatchObject({
      status: "RESOLVED",
      offer,
      answer: { kind: "ACCEPTED", reason: null },
      sagaInstanceId: run,
    });
    expect((await index.get(subCaseUrnFor(caseUrn, groupId)))?.answer?.kind).toBe("ACCEPTED");

    const again = await answers.accept(request(2));
    expect(again).toEqual({ view: first.view, replayed: true });
    expect(await typesOf("subcase.resolved")).toHaveLength(1);
  });

  it("gives exactly one subcase.resolved for 100 concurrent accepts; the other 99 are replays", async () => {
    const { answers, request, typesOf } = await offered();
    const results = await Promise.all(Array.from({ length: 100 }, (_, n) => answers.accept(request(n))));
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    expect(results.every((r) => r.view.status === "RESOLVED")).toBe(true);
    const resolved = await typesOf("subcase.resolved");
    expect(resolved).toHaveLength(1);
    // The event carries the run to hand the answer to (SubCaseSagas.deliverAnswer).
    expect(resolved[0]!.data).toMatchObject({ sagaInstanceId: run, answer: { kind: "ACCEPTED" } });
  });

  it("declines with the reason; a second answer of either kind is a conflict", async () => {
    const { answers, request, typesOf } = await offered();
    const declined = await answers.decline({ ...request(1), reason: "too far from the airport" });
    expect(declined.view).toMatchObject({
      status: "DECLINED",
      answer: { kind: "DECLINED", reason: "too far from the airport" },
    });
    expect(await typesOf("subcase.declined")).toHaveLength(1);
    expect(await refusal(answers.accept(request(2)))).toMatchObject({
      kind: "conflict",
      code: "offer-already-declined",
    });
    expect(await refusal(answers.decline({ ...request(3), reason: "again" }))).toMatchObject({
      kind: "conflict",
      code: "offer-already-declined",
    });
  });

  it("refuses a decline after an accept, and an answer before there is an offer", async () => {
    const { answers, request } = await offered();
    await answers.accept(request(1));
    expect(await refusal(answers.decline({ ...request(2), reason: "changed my mind" }))).toMatchObject({
      kind: "conflict",
      code: "offer-already-accepted",
    });

    const fresh = await startActorStage(SubCaseActor, tenant);
    await (fresh.runtime.invoke as any)(SubCaseActor, subCaseActorIdFor(caseUrn, groupId), "open", {
      caseUrn,
      groupId,
      tenant,
      airport: "JFK",
      correlationUrn: "urn:trace:open",
    });
    const early = new AnswerOffer(fresh.runtime, new SubCaseIndex(new MemoryDocumentStore()));
    expect(await refusal(early.accept(request(3)))).toMatchObject({
      kind: "conflict",
      code: "offer-not-ready",
    });
  });
});
