import { describe, expect, it } from "vitest";
import { AuditLog, type NewAuditEntry } from "../../src/app/audit-log.js";
import { type AuditEntry } from "../../src/app/audit-entry.js";
import type { AuditTrail } from "../../src/app/audit-trail.js";
import { DocumentAuditTrail } from "../../src/app/document-audit-trail.js";
import { MemoryAuditTrail } from "../../src/app/memory-audit-trail.js";
import { ManualClock } from "../../src/runtime/clock.js";
import { InvalidCursorError } from "../../src/runtime/document-store.js";
import { MemoryDocumentStore } from "../../src/runtime/memory/document-store.js";
import { describeAgainstMongo } from "../support/mongo.js";

const ZX = "urn:airline:ZX";
const VQ = "urn:airline:VQ";
const CASE = "urn:case:c1";

function entry(over: Partial<NewAuditEntry> = {}): NewAuditEntry {
  return {
    tenant: ZX,
    actorUrn: "urn:user:u1",
    action: "getCase",
    entityUrn: null,
    caseUrn: null,
    correlationUrn: "urn:trace:1",
    ...over,
  };
}

/** The same behaviour from every trail: what the audit routes and the review follow-up rely on. */
function describeAuditTrail(
  name: string,
  open: () => Promise<{ trail: AuditTrail; dispose(): Promise<void> }>,
) {
  describe(name, () => {
    async function withLog(run: (log: AuditLog, clock: ManualClock) => Promise<void>) {
      const { trail, dispose } = await open();
      const clock = new ManualClock(Date.UTC(2026, 10, 22, 4, 0));
      try {
        await run(new AuditLog(trail, clock), clock);
      } finally {
        await dispose();
      }
    }

    it("returns a tenant's entries oldest first, never another tenant's", async () => {
      await withLog(async (log, clock) => {
        for (let i = 0; i < 5; i++) {
          await log.append(entry({ action: `a${i}` }));
          await log.append(entry({ tenant: VQ, action: `vq${i}` }));
          clock.advance(1000);
        }
        const page = await log.query({ tenant: ZX, limit: 50 });
        expect(page.items.map((e) => e.action)).toEqual(["a0", "a1", "a2", "a3", "a4"]);
        expect(page.items.every((e) => e.tenant === ZX)).toBe(true);
        expect(page).toMatchObject({ hasMore: false, nextCursor: null });
        expect((await log.query({ tenant: "urn:airline:NONE", limit: 50 })).items).toEqual([]);
      });
    });

    it("keeps entries of the same millisecond in the order they were appended", async () => {
      await withLog(async (log) => {
        for (let i = 0; i < 20; i++) await log.append(entry({ action: `same-ms-${i}` }));
        const { items } = await log.query({ tenant: ZX, limit: 50 });
        expect(items.map((e) => e.action)).toEqual(Array.from({ length: 20 }, (_, i) => `same-ms-${i}`));
      });
    });

    it("finds a case's trail: entries about the case itself and entries of its entities", async () => {
      await withLog(async (log, clock) => {
        await log.append(entry({ action: "case.open", entityUrn: CASE, caseUrn: CASE }));
        clock.advance(1);
        await log.append(entry({ action: "lock", entityUrn: "urn:sub-case:s1", caseUrn: CASE }));
        clock.advance(1);
        await log.append(entry({ action: "other", entityUrn: "urn:case:c2", caseUrn: "urn:case:c2" }));
        clock.advance(1);
        // An entry naming the case only as its entity (no caseUrn) belongs to the trail too.
        await log.append(entry({ action: "partner-read", entityUrn: CASE }));
        const { items } = await log.query({ tenant: ZX, caseUrn: CASE, limit: 50 });
        expect(items.map((e) => e.action)).toEqual(["case.open", "lock", "partner-read"]);
        const locks = await log.query({ tenant: ZX, caseUrn: CASE, action: "lock", limit: 50 });
        expect(locks.items.map((e) => e.entityUrn)).toEqual(["urn:sub-case:s1"]);
      });
    });

    it("narrows by entity, by entity kind, and by kind and action", async () => {
      await withLog(async (log, clock) => {
        await log.append(entry({ action: "policy.create", entityUrn: "urn:policy:p1" }));
        clock.advance(1);
        await log.append(entry({ action: "policy.activate", entityUrn: "urn:policy:p1" }));
        clock.advance(1);
        await log.append(entry({ action: "policy.activate", entityUrn: "urn:policy:p2" }));
        clock.advance(1);
        await log.append(entry({ action: "reaccommodate", entityUrn: CASE, caseUrn: CASE }));
        const actions = async (q: object) =>
          (await log.query({ tenant: ZX, limit: 50, ...q })).items.map((e) => `${e.action} ${e.entityUrn}`);
        expect(await actions({ entityUrn: "urn:policy:p1" })).toEqual([
          "policy.create urn:policy:p1",
          "policy.activate urn:policy:p1",
        ]);
        expect(await actions({ entityKind: "policy" })).toHaveLength(3);
        expect(await actions({ entityKind: "policy", action: "policy.activate" })).toEqual([
          "policy.activate urn:policy:p1",
          "policy.activate urn:policy:p2",
        ]);
        expect(await actions({ entityKind: "case", action: "reaccommodate" })).toEqual([
          `reaccommodate ${CASE}`,
        ]);
        expect(await actions({ action: "policy.create" })).toEqual(["policy.create urn:policy:p1"]);
        expect(await actions({ entityUrn: "urn:policy:p1", action: "policy.activate" })).toEqual([
          "policy.activate urn:policy:p1",
        ]);
      });
    });

    it("pages with cursors that give the same page again later, even after more entries arrive", async () => {
      await withLog(async (log, clock) => {
        for (let i = 0; i < 7; i++) {
          await log.append(entry({ action: `e${i}` }));
          clock.advance(10);
        }
        const first = await log.query({ tenant: ZX, limit: 3 });
        expect(first.items.map((e) => e.action)).toEqual(["e0", "e1", "e2"]);
        expect(first.hasMore).toBe(true);
        const second = await log.query({ tenant: ZX, limit: 3, cursor: first.nextCursor! });
        expect(second.items.map((e) => e.action)).toEqual(["e3", "e4", "e5"]);
        await log.append(entry({ action: "later" }));
        const again = await log.query({ tenant: ZX, limit: 3, cursor: first.nextCursor! });
        expect(again.items).toEqual(second.items);
        const third = await log.query({ tenant: ZX, limit: 3, cursor: second.nextCursor! });
        expect(third.items.map((e) => e.action)).toEqual(["e6", "later"]);
        expect(third).toMatchObject({ hasMore: false, nextCursor: null });
      });
    });

    it("refuses a cursor it did not make", async () => {
      await withLog(async (log) => {
        await log.append(entry());
        for (const cursor of ["garbage", Buffer.from("audit:99999").toString("base64url"), "YXVkaXQ6LTE"]) {
          await expect(log.query({ tenant: ZX, limit: 3, cursor })).rejects.toBeInstanceOf(
            InvalidCursorError,
          );
        }
      });
    });

    it("stores the full entry, its snapshots as they were when appended, and hands out copies", async () => {
      await withLog(async (log) => {
        const after = { status: "ACTIVE", weights: [0.6, 0.25, 0.15] };
        await log.append(
          entry({
            action: "policy.activate",
            entityUrn: "urn:policy:p1",
            reason: "season",
            before: { status: "DRAFT" },
            after,
            payload: { version: 2 },
            outcome: { status: 200 },
          }),
        );
        after.status = "CHANGED LATER";
        const [stored] = (await log.query({ tenant: ZX, limit: 5 })).items as [AuditEntry];
        expect(stored).toMatchObject({
          urn: expect.stringMatching(/^urn:audit-entry:[0-9a-f-]{36}$/),
          tenant: ZX,
          actorUrn: "urn:user:u1",
          action: "policy.activate",
          entityUrn: "urn:policy:p1",
          entityKind: "policy",
          caseUrn: null,
          correlationUrn: "urn:trace:1",
          payloadHash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
          reason: "season",
          before: { status: "DRAFT" },
          after: { status: "ACTIVE", weights: [0.6, 0.25, 0.15] },
          outcome: { status: 200 },
          at: "2026-11-22T04:00:00.000Z",
        });
        expect(stored._id.endsWith(stored.urn.slice("urn:audit-entry:".length))).toBe(true);
        (stored.after as { status: string }).status = "MUTATED BY A READER";
        const [again] = (await log.query({ tenant: ZX, limit: 5 })).items as [AuditEntry];
        expect(again.after).toEqual({ status: "ACTIVE", weights: [0.6, 0.25, 0.15] });
      });
    });

    it("answers whether an entry matching a filter exists, within the tenant", async () => {
      await withLog(async (log) => {
        await log.append(
          entry({
            action: "review-item.sla-breached",
            entityUrn: "urn:review-item:r1",
            after: { priority: "HIGH" },
          }),
        );
        const filter = { entityUrn: "urn:review-item:r1", action: "review-item.sla-breached" };
        expect(await log.has({ tenant: ZX, ...filter })).toBe(true);
        expect(await log.has({ tenant: ZX, ...filter, "after.priority": "HIGH" })).toBe(true);
        expect(await log.has({ tenant: ZX, ...filter, "after.priority": "CRITICAL" })).toBe(false);
        expect(await log.has({ tenant: VQ, ...filter })).toBe(false);
        expect(await log.has({ tenant: ZX, action: "review-item.sla-breached" })).toBe(true);
      });
    });
  });
}

describeAuditTrail("MemoryAuditTrail", async () => ({
  trail: new MemoryAuditTrail(),
  dispose: async () => {},
}));

describeAuditTrail("DocumentAuditTrail on the memory document store", async () => ({
  trail: new DocumentAuditTrail(new MemoryDocumentStore()),
  dispose: async () => {},
}));

describeAgainstMongo("MongoDB audit trail contract", "audit", (connect) => {
  describeAuditTrail("DocumentAuditTrail on MongoDB", async () => {
    const store = await connect();
    await store.collection("audit").deleteMany({});
    return { trail: new DocumentAuditTrail(store), dispose: () => store.close() };
  });
});
