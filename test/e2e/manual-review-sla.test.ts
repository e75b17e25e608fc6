import { openOneGroupCase, requestReviewItem } from "../support/review-case.js";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { AuditEntry } from "../../src/app/audit-entry.js";
import type { ReviewQueueEntry } from "../../src/app/manual-review/review-queue-index.js";
import { type DomainEvent, topicFor } from "../../src/domain/domain-event.js";
import { ManualClock } from "../../src/runtime/clock.js";
import { startTestPlatform, type TestPlatform } from "../support/platform.js";
import { recordEvents } from "../support/event-recorder.js";

const ZX = "urn:airline:ZX";
const MINUTE = 60_000;

let t: TestPlatform;
const clock = new ManualClock(Date.now());
const pages: DomainEvent[] = [];
let supervisor: string;

beforeAll(async () => {
  t = await startTestPlatform({ clock });
  supervisor = await t.operatorToken("supervisor@zx.demo");
  recordEvents(
    t.platform.runtime.bus,
    { name: "test.pager", topic: topicFor({ tenant: ZX }), types: ["review-item.sla-breached"] },
    pages,
  );
});
afterAll(async () => {
  await t?.close();
});

const openCase = () => openOneGroupCase(t, supervisor, "sla");
const requestItem = (caseUrn: string, category: string) =>
  requestReviewItem(t, caseUrn, category, clock.now());

const item = (urn: string) =>
  t.platform.runtime.documents.collection<ReviewQueueEntry>("review-items").get(urn);
const pagesOf = (urn: string) => pages.filter((e) => (e.data as { urn: string }).urn === urn);
const breachAudit = async (urn: string): Promise<AuditEntry[]> =>
  (
    await t.platform.audit.query({
      tenant: ZX,
      entityUrn: urn,
      action: "review-item.sla-breached",
      limit: 500,
    })
  ).items;

it("an SLA breach raises the priority one level, pages the tenant's alerting channel and is audited, until resolved", async () => {
  const caseUrn = await openCase();
  const waiting = await requestItem(caseUrn, "PAYMENT_FAILED");
  const settled = await requestItem(caseUrn, "PAYMENT_FAILED");
  const resolved = await t.call(
    "POST",
    `/v1/booking/manual-review/${encodeURIComponent(settled)}/resolve`,
    supervisor,
    {
      resolution: "PAYMENT_CORRECTED",
      reason: "new card on file",
    },
  );
  expect(resolved.status).toBe(200);
  const openedAt = clock.now();

  // MEDIUM: 60 minutes.
  await clock.advance(59 * MINUTE);
  expect(pagesOf(waiting)).toHaveLength(0);
  expect((await item(waiting))?.priority).toBe("MEDIUM");

  await clock.advance(1 * MINUTE);
  await expect.poll(() => pagesOf(waiting).length).toBe(1);
  expect(pagesOf(waiting)[0]).toMatchObject({
    type: "review-item.sla-breached",
    tenant: ZX,
    caseUrn,
    data: {
      urn: waiting,
      category: "PAYMENT_FAILED",
      airport: "JFK",
      previousPriority: "MEDIUM",
      priority: "HIGH",
      breachedAt: new Date(openedAt + 60 * MINUTE).toISOString(),
      slaDueAt: new Date(openedAt + 75 * MINUTE).toISOString(),
    },
  });
  await expect.poll(async () => (await item(waiting))?.priority).toBe("HIGH");
  expect((await item(waiting))?.priorityRank).toBe(0);
  await expect.poll(async () => (await breachAudit(waiting)).length).toBe(1);
  expect((await breachAudit(waiting))[0]).toMatchObject({
    tenant: ZX,
    actorUrn: "urn:system:manual-review",
    caseUrn,
    reason: "SLA breached at MEDIUM; priority raised to HIGH",
    before: { priority: "MEDIUM" },
    after: { priority: "HIGH" },
  });

  // HIGH: the next page 15 minutes later; the priority stays HIGH.
  await clock.advance(15 * MINUTE);
  await expect.poll(() => pagesOf(waiting).length).toBe(2);
  expect(pagesOf(waiting)[1]?.data).toMatchObject({ previousPriority: "HIGH", priority: "HIGH" });
  await expect.poll(async () => (await breachAudit(waiting)).length).toBe(2);

  expect(pagesOf(settled)).toHaveLength(0);
  expect(await breachAudit(settled)).toHaveLength(0);
});
