import type { ReviewCategory, ReviewPriority } from "../../domain/case.js";
import { priorityRank, type ReviewItem, type ReviewItemState } from "../../domain/review-item.js";
import {
  type DocumentCollection,
  type DocumentStore,
  type FindOptions,
  type Page,
} from "../../runtime/document-store.js";
import { COLLECTIONS, type ReviewItemDocument } from "../cases/case-documents.js";
import { inject, injectable } from "tsyringe";
import { TOKENS } from "../../runtime/tokens.js";

/**
 * A review item in the `review-items` collection: the fields of spec 2.5 the case area already
 * reads (`ReviewItemDocument`), the rest of the item, the version it reflects and a sortable
 * priority (HIGH first). Items the case raised are first inserted by the case projection without
 * `revision`; the review-item actor's copy then replaces them.
 */
export interface ReviewQueueEntry extends ReviewItemDocument, Omit<ReviewItem, keyof ReviewItemDocument> {
  priorityRank: number;
  revision: number;
}

export interface QueueFilter {
  tenant: string;
  /** An airport-scoped caller sees its airport's items only. */
  airport?: string;
  category?: ReviewCategory;
  priority?: ReviewPriority;
  state?: ReviewItemState;
}

/** The queryable copy of every ReviewItemActor, written after each turn and from its events. */
@injectable()
export class ReviewQueueIndex {
  private readonly documents: DocumentCollection<ReviewQueueEntry>;

  constructor(@inject(TOKENS.documents) store: DocumentStore) {
    this.documents = store.collection<ReviewQueueEntry>(COLLECTIONS.reviewItems);
  }

  /**
   * The queue's order, and a case's items in the order they were raised (the case detail and the
   * case's fulfilment read them by case, which otherwise tests every item of every tenant).
   */
  async ensureIndexes(): Promise<void> {
    await this.documents.ensureIndex({ keys: { tenant: 1, priorityRank: 1, createdAt: 1 } });
    await this.documents.ensureIndex({ keys: { caseUrn: 1, createdAt: 1 } });
  }

  /**
   * Lands only when newer than what is stored, so copies finishing in any order leave the latest
   * turn; a document without a revision (the case projection's first copy) is always older. The
   * stored one is read first: most copies repeat one already made (the route's, then the event's).
   */
  async record(item: ReviewItem): Promise<void> {
    // Fields before the spread: on Node 20 adding fields after one is a slow path (~1 µs each).
    const entry: ReviewQueueEntry = {
      _id: item.urn,
      priorityRank: priorityRank(item.priority),
      revision: item.version,
      ...item,
    };
    const stored = await this.documents.get(entry._id);
    if (stored && stored.revision !== undefined && stored.revision >= entry.revision) return;
    // Unless another writer inserted it in between.
    if (!stored && (await this.documents.insertIfAbsent(entry))) return;
    const { _id, ...fields } = entry;
    await this.documents.updateOne(
      { _id, $or: [{ revision: { $exists: false } }, { revision: { $lt: entry.revision } }] },
      { $set: fields },
    );
  }

  get(urn: string): Promise<ReviewQueueEntry | undefined> {
    return this.documents.get(urn);
  }

  /** Sorted by priority (HIGH first), then oldest first. */
  page(filter: QueueFilter, page: FindOptions): Promise<Page<ReviewQueueEntry>> {
    const { tenant, airport, category, priority, state } = filter;
    return this.documents.find(
      {
        tenant,
        ...(airport ? { airport } : {}),
        ...(category ? { category } : {}),
        ...(priority ? { priority } : {}),
        ...(state ? { state } : {}),
      },
      { ...page, sort: { priorityRank: 1, createdAt: 1 } },
    );
  }

  /** Items of a case not yet resolved, optionally of some categories only. */
  unresolvedOfCase(tenant: string, caseUrn: string, categories?: readonly string[]) {
    return this.documents.findAll({
      tenant,
      caseUrn,
      state: { $ne: "RESOLVED" },
      ...(categories ? { category: { $in: categories } } : {}),
    });
  }
}
