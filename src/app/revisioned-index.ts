import type { Doc, DocumentCollection } from "../runtime/document-store.js";

/** A query-index document copied from an actor's state, stamped with the actor's revision. */
export interface RevisionedDoc extends Doc {
  revision: number;
}

/**
 * Writes actor state into a query index (DocumentStore) so that the index only ever moves forward.
 *
 * The actor is the authority and commits one revision per turn; callers copy its state here after
 * the turn returns. Two callers can finish in either order, so a write only lands when it carries
 * a newer revision than the stored document: whatever the order, the index ends at the latest turn.
 * Writing the same revision again changes nothing, so a retried copy is harmless. Top-level
 * fields are set, never removed: the documents written here only ever gain top-level fields.
 *
 * The stored revisions are read first, all in one query: most copies are repeats (the route's copy
 * and then the event's), which then cost that one read; new documents are inserted; only newer
 * revisions of stored documents are written, and then under the revision guard, which settles a
 * race with another writer.
 */
export async function writeRevisioned<T extends RevisionedDoc>(
  collection: DocumentCollection<T>,
  docs: readonly T[],
): Promise<void> {
  if (docs.length === 0) return;
  const stored =
    docs.length === 1
      ? [await collection.get(docs[0]!._id)].filter((doc) => doc !== undefined)
      : await collection.findAll({ _id: { $in: docs.map((doc) => doc._id) } });
  const revisions = new Map(stored.map((doc) => [doc._id, doc.revision]));
  await Promise.all(
    docs.map((doc) => {
      if (!revisions.has(doc._id)) return insertOrUpdate(collection, doc);
      return revisions.get(doc._id)! >= doc.revision ? undefined : update(collection, doc);
    }),
  );
}

async function insertOrUpdate<T extends RevisionedDoc>(
  collection: DocumentCollection<T>,
  doc: T,
): Promise<void> {
  // Another writer may have inserted it in between.
  if (!(await collection.insertIfAbsent(doc))) await update(collection, doc);
}

async function update<T extends RevisionedDoc>(collection: DocumentCollection<T>, doc: T): Promise<void> {
  const { _id, ...fields } = doc;
  await collection.updateOne({ _id, revision: { $lt: doc.revision } }, { $set: fields });
}
