import { type Doc, type DocumentCollection, DuplicateKeyError } from "../runtime/document-store.js";

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
 */
export async function writeRevisioned<T extends RevisionedDoc>(
  collection: DocumentCollection<T>,
  docs: readonly T[],
): Promise<void> {
  await Promise.all(docs.map((doc) => writeOne(collection, doc)));
}

async function writeOne<T extends RevisionedDoc>(collection: DocumentCollection<T>, doc: T): Promise<void> {
  try {
    await collection.insert(doc);
  } catch (error) {
    if (!(error instanceof DuplicateKeyError)) throw error;
    const { _id, ...fields } = doc;
    await collection.updateOne({ _id, revision: { $lt: doc.revision } }, { $set: fields });
  }
}
