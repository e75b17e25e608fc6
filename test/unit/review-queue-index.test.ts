import { describe, expect, it, vi } from "vitest";
import { COLLECTIONS } from "../../src/app/cases/case-documents.js";
import { ReviewQueueIndex } from "../../src/app/manual-review/review-queue-index.js";
import { MemoryDocumentStore } from "../../src/runtime/memory/document-store.js";

describe("the review items' indexes", () => {
  it("find a case's items by case, in the order they were raised, besides the queue's order", async () => {
    const store = new MemoryDocumentStore();
    const items = store.collection(COLLECTIONS.reviewItems);
    const declared = vi.spyOn(items, "ensureIndex");
    await new ReviewQueueIndex(store).ensureIndexes();
    expect(declared.mock.calls.map(([spec]) => spec.keys)).toEqual([
      { tenant: 1, priorityRank: 1, createdAt: 1 },
      { caseUrn: 1, createdAt: 1 },
    ]);
  });
});
