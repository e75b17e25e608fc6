import type { Doc, DocumentCollection, DocumentStore, IndexSpec } from "../runtime/document-store.js";

/**
 * A collection of a query index, opened with the indexes its queries need. Every call waits until
 * they exist, so no query or write runs before them; once they do, calls stop waiting.
 */
export function indexedCollection<T extends Doc>(
  store: DocumentStore,
  name: string,
  indexes: readonly IndexSpec[],
): DocumentCollection<T> {
  const collection = store.collection<T>(name);
  let ready = false;
  const indexed = Promise.all(indexes.map((spec) => collection.ensureIndex(spec))).then(() => {
    ready = true;
  });
  const whenIndexed =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      if (!ready) await indexed;
      return call(...args);
    };
  return {
    insert: whenIndexed((doc) => collection.insert(doc)),
    insertIfAbsent: whenIndexed((doc) => collection.insertIfAbsent(doc)),
    put: whenIndexed((doc) => collection.put(doc)),
    handOver: whenIndexed((doc) => collection.handOver(doc)),
    get: whenIndexed((id) => collection.get(id)),
    peek: whenIndexed((id) => collection.peek(id)),
    updateOne: whenIndexed((filter, update) => collection.updateOne(filter, update)),
    deleteOne: whenIndexed((filter) => collection.deleteOne(filter)),
    deleteMany: whenIndexed((filter) => collection.deleteMany(filter)),
    findOne: whenIndexed((filter, options) => collection.findOne(filter, options)),
    peekOneFields: async (filter, fields, options) => {
      if (!ready) await indexed;
      return collection.peekOneFields(filter, fields, options);
    },
    find: whenIndexed((filter, options) => collection.find(filter, options)),
    findAll: whenIndexed((filter, options) => collection.findAll(filter, options)),
    peekAll: whenIndexed((filter, options) => collection.peekAll(filter, options)),
    count: whenIndexed((filter) => collection.count(filter)),
    ensureIndex: (spec) => collection.ensureIndex(spec),
  };
}
