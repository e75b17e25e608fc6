import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type Doc,
  type DocumentCollection,
  type DocumentStore,
  DuplicateKeyError,
  type Filter,
  type FindOptions,
  InvalidCursorError,
  type SortSpec,
} from "../../src/runtime/document-store.js";
import { MemoryDocumentStore } from "../../src/runtime/memory/document-store.js";
import { RedisDocumentStore } from "../../src/runtime/redis/document-store.js";
import { describeAgainstMongo } from "../support/mongo.js";
import { describeAgainstRedis } from "../support/redis.js";

interface CaseDoc extends Doc {
  airport: string;
  status: string;
  createdAt: string;
  priority: number;
  flight?: { number: string; departure?: string | null };
  tags?: string[];
  passengers?: { name: string; seat?: string }[];
  email?: string;
  count?: number;
  note?: string;
}

interface DocumentStoreHarness {
  store: DocumentStore;
  dispose(): Promise<void>;
}

function caseDoc(id: string, overrides: Partial<CaseDoc> = {}): CaseDoc {
  return {
    _id: id,
    airport: "FRA",
    status: "OPEN",
    createdAt: "2026-03-01T10:00:00.000Z",
    priority: 1,
    ...overrides,
  };
}

/** MongoDB's order for the values used here: null and missing first, then numbers, then strings. */
function expectedOrder(docs: CaseDoc[], sort: SortSpec): string[] {
  const rank = (value: unknown) =>
    value === null || value === undefined ? 0 : typeof value === "number" ? 1 : 2;
  const at = (doc: CaseDoc, path: string): unknown =>
    path
      .split(".")
      .reduce<unknown>((value, segment) => (value as Record<string, unknown> | undefined)?.[segment], doc);
  const keys = [...Object.entries(sort), ...("_id" in sort ? [] : [["_id", 1] as const])];
  return [...docs]
    .sort((a, b) => {
      for (const [path, direction] of keys) {
        const [x, y] = [at(a, path), at(b, path)];
        const order =
          rank(x) - rank(y) || (x === y || rank(x) === 0 ? 0 : (x as string) < (y as string) ? -1 : 1);
        if (order !== 0) return order * direction;
      }
      return 0;
    })
    .map((doc) => doc._id);
}

async function walkPages(
  cases: DocumentCollection<CaseDoc>,
  filter: Record<string, unknown>,
  options: Omit<FindOptions, "cursor">,
): Promise<string[][]> {
  const pages: string[][] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await cases.find(filter, { ...options, cursor });
    pages.push(page.items.map((doc) => doc._id));
    expect(page.hasMore).toBe(page.nextCursor !== null);
    if (!page.hasMore) return pages;
    cursor = page.nextCursor!;
  }
}

/** Documents whose indexed fields hold every kind of value an equality lookup must get right. */
function indexedDocs(): CaseDoc[] {
  const withoutStatus = (doc: CaseDoc): CaseDoc => {
    const { status: _none, ...rest } = doc;
    return rest as CaseDoc;
  };
  return [
    caseDoc("d1", { priority: 1, flight: { number: "LH400" } }),
    caseDoc("d2", { priority: 2, flight: { number: "LH402" }, tags: ["vip"] }),
    caseDoc("d3", { airport: "MUC", status: "CLOSED" }),
    withoutStatus(caseDoc("d4")),
    caseDoc("d5", { status: null as unknown as string, priority: 2 }),
    caseDoc("d6", { airport: "MUC", priority: 2, flight: { number: null as unknown as string } }),
    caseDoc("d7", { priority: "2" as unknown as number }),
    caseDoc("d8", { status: "CLOSED", flight: [{ number: "LH400" }] as unknown as CaseDoc["flight"] }),
    caseDoc("d9", { tags: ["vip", "late"], flight: { number: "LH400", departure: null } }),
    caseDoc("d10", { airport: "BER", priority: 3, tags: [] }),
    caseDoc("d11", { priority: 1.5, createdAt: "2026-02-01T10:00:00.000Z" }),
    caseDoc("d12", { airport: "MUC", tags: ["vip"] }),
    caseDoc("d13", { priority: 1, createdAt: "2026-01-01T10:00:00.000Z" }),
    caseDoc("d14", { airport: "MUC", status: "CLOSED", priority: 3, flight: { number: "LH400" } }),
    caseDoc("d15", { flight: "LH400" as unknown as CaseDoc["flight"] }),
  ];
}

const INDEXED_FILTERS: Record<string, unknown>[] = [
  { airport: "FRA" },
  { airport: "FRA", status: "OPEN" },
  { airport: "FRA", status: "OPEN", priority: 1 },
  { airport: "FRA", status: null },
  { airport: { $eq: "FRA" }, status: { $eq: null } },
  { airport: "FRA", priority: 2 },
  { airport: "FRA", status: "OPEN", priority: "2" },
  { airport: "MUC", status: "CLOSED", priority: { $gte: 1 } },
  { airport: "FRA", $or: [{ status: "CLOSED" }, { priority: 2 }] },
  { airport: "FRA", status: { $in: ["OPEN", "CLOSED"] } },
  { airport: "NOWHERE" },
  { airport: null },
  { "flight.number": "LH400" },
  { "flight.number": null },
  { "flight.number": "LH400", status: "OPEN" },
  { tags: "vip" },
  { tags: null },
  { status: "OPEN" },
];

function describeDocumentStore(name: string, openHarness: () => Promise<DocumentStoreHarness>): void {
  describe(name, () => {
    let harness: DocumentStoreHarness;
    let cases: DocumentCollection<CaseDoc>;
    let collectionNumber = 0;

    beforeEach(async () => {
      harness = await openHarness();
      cases = harness.store.collection<CaseDoc>(`cases_${collectionNumber++}`);
    });
    afterEach(() => harness.dispose());

    async function insertAll(docs: CaseDoc[]): Promise<void> {
      for (const doc of docs) await cases.insert(doc);
    }

    it("inserts, reads back by id, and refuses a second document with the same _id", async () => {
      await cases.insert(caseDoc("c1", { airport: "MUC" }));

      await expect(cases.insert(caseDoc("c1", { airport: "BER" }))).rejects.toMatchObject({
        name: "DuplicateKeyError",
        key: "c1",
      });
      expect(await cases.get("c1")).toEqual(caseDoc("c1", { airport: "MUC" }));
      expect(await cases.get("missing")).toBeUndefined();
    });

    it("inserts if absent: true when it inserted, false (and the first document kept) when the _id exists", async () => {
      expect(await cases.insertIfAbsent(caseDoc("c1", { airport: "MUC" }))).toBe(true);
      expect(await cases.insertIfAbsent(caseDoc("c1", { airport: "BER" }))).toBe(false);
      expect(await cases.get("c1")).toEqual(caseDoc("c1", { airport: "MUC" }));
      const racing = await Promise.all(
        Array.from({ length: 10 }, (_, i) => cases.insertIfAbsent(caseDoc("c2", { airport: `A${i}` }))),
      );
      expect(racing.filter(Boolean)).toHaveLength(1);
      expect(await cases.count({ _id: "c2" })).toBe(1);
    });

    it("keeps its own copy of documents, both written and read", async () => {
      const written = caseDoc("c1", { tags: ["vip"] });
      await cases.insert(written);
      written.tags!.push("changed by caller");

      const read = await cases.get("c1");
      read!.tags!.push("changed by reader");
      const updated = await cases.updateOne({ _id: "c1" }, { $set: { status: "CLOSED" } });
      updated!.tags!.push("changed by updater");

      expect((await cases.get("c1"))?.tags).toEqual(["vip"]);
    });

    it("peeks at one match with only the fields asked for, sorted as findOne sorts", async () => {
      await cases.insert(caseDoc("c1", { priority: 1, passengers: [{ name: "Ann" }], note: "one" }));
      await cases.insert(caseDoc("c2", { priority: 2, passengers: [{ name: "Bo" }], note: "two" }));
      const part = await cases.peekOneFields({ airport: "FRA" }, ["passengers", "email"], {
        sort: { priority: -1 },
      });
      expect(part).toEqual({ _id: "c2", passengers: [{ name: "Bo" }] });
      expect(await cases.peekOneFields({ airport: "MUC" }, ["note"])).toBeUndefined();
    });

    it("peeks at what findAll and get find, in their order, and what a peek holds stays as it was read", async () => {
      await cases.insert(caseDoc("c1", { priority: 2, tags: ["vip"] }));
      await cases.insert(caseDoc("c2", { priority: 1, tags: [] }));
      await cases.insert(caseDoc("c3", { airport: "MUC", priority: 3 }));
      const options = { sort: { priority: 1 } } as const;
      const peeked = await cases.peekAll({ airport: "FRA" }, options);
      expect(peeked).toEqual(await cases.findAll({ airport: "FRA" }, options));
      const part = await cases.peekOneFields({ _id: "c1" }, ["tags", "status"]);
      const one = await cases.peek("c1");
      expect(one).toEqual(await cases.get("c1"));
      expect(await cases.peek("c9")).toBeUndefined();

      // A store may hand out what it holds: a later write must leave the peeked documents alone.
      await cases.updateOne({ _id: "c1" }, { $set: { status: "CLOSED" }, $push: { tags: "late" } });
      await cases.put(caseDoc("c2", { priority: 1, tags: ["replaced"] }));
      expect(peeked.map((doc) => [doc._id, doc.status, doc.tags])).toEqual([
        ["c2", "OPEN", []],
        ["c1", "OPEN", ["vip"]],
      ]);
      expect(part).toEqual({ _id: "c1", tags: ["vip"], status: "OPEN" });
      expect(one).toEqual(caseDoc("c1", { priority: 2, tags: ["vip"] }));
      expect((await cases.peek("c1"))?.tags).toEqual(["vip", "late"]);
    });

    it("returns dates and nested arrays as they were written", async () => {
      const written = {
        ...caseDoc("c1"),
        openedAt: new Date("2026-03-01T10:00:00.000Z"),
        legs: [["FRA", "MUC"], []],
      };
      await harness.store.collection<typeof written>(`dated_${collectionNumber}`).insert(written);

      const read = await harness.store.collection<typeof written>(`dated_${collectionNumber}`).get("c1");
      expect(read).toEqual(written);
      expect(read?.openedAt).toBeInstanceOf(Date);
    });

    it("takes a handed-over document as put does, inserting it or replacing one whole", async () => {
      await cases.put(caseDoc("c1", { note: "first" }));
      await cases.handOver(caseDoc("c1", { status: "CLOSED", tags: ["late"] }));
      await cases.handOver(caseDoc("c2"));

      expect(await cases.get("c1")).toEqual(caseDoc("c1", { status: "CLOSED", tags: ["late"] }));
      expect(await cases.findAll({ status: "CLOSED" })).toEqual([
        caseDoc("c1", { status: "CLOSED", tags: ["late"] }),
      ]);
      expect(await cases.count()).toBe(2);
      // What a reader gets is its own, as after a put.
      const read = await cases.get("c1");
      read?.tags?.push("changed");
      expect((await cases.get("c1"))?.tags).toEqual(["late"]);
    });

    it("puts a new document and replaces an existing one whole", async () => {
      await cases.put(caseDoc("c1", { note: "first" }));
      await cases.put(caseDoc("c1", { status: "CLOSED" }));

      expect(await cases.get("c1")).toEqual(caseDoc("c1", { status: "CLOSED" }));
      expect(await cases.count()).toBe(1);
    });

    it("enforces a unique index on insert, put and update, and frees a key once its owner is gone", async () => {
      await cases.ensureIndex({ keys: { email: 1 }, unique: true, name: "email_unique" });
      await cases.ensureIndex({ keys: { email: 1 }, unique: true, name: "email_unique" });
      await cases.insert(caseDoc("c1", { email: "ann@example.com" }));
      await cases.insert(caseDoc("c2", { email: "bob@example.com" }));

      await expect(cases.insert(caseDoc("c3", { email: "ann@example.com" }))).rejects.toThrow(
        DuplicateKeyError,
      );
      await expect(cases.insertIfAbsent(caseDoc("c4", { email: "ann@example.com" }))).rejects.toThrow(
        DuplicateKeyError,
      );
      await expect(cases.put(caseDoc("c2", { email: "ann@example.com" }))).rejects.toThrow(DuplicateKeyError);
      await expect(cases.updateOne({ _id: "c2" }, { $set: { email: "ann@example.com" } })).rejects.toThrow(
        DuplicateKeyError,
      );
      expect((await cases.get("c2"))?.email).toBe("bob@example.com");
      expect(await cases.get("c3")).toBeUndefined();
      expect(await cases.get("c4")).toBeUndefined();

      await cases.put(caseDoc("c1", { email: "ann@example.com", status: "CLOSED" }));
      await cases.deleteOne({ _id: "c1" });
      await cases.insert(caseDoc("c3", { email: "ann@example.com" }));
      expect((await cases.findOne({ email: "ann@example.com" }))?._id).toBe("c3");
    });

    it("refuses a unique index over documents that already collide", async () => {
      await insertAll([
        caseDoc("c1", { email: "same@example.com" }),
        caseDoc("c2", { email: "same@example.com" }),
      ]);

      await expect(cases.ensureIndex({ keys: { email: 1 }, unique: true })).rejects.toThrow(
        DuplicateKeyError,
      );
      await cases.insert(caseDoc("c3", { email: "same@example.com" }));
      expect(await cases.count({ email: "same@example.com" })).toBe(3);
    });

    it("applies update operators and returns the updated document", async () => {
      await cases.insert(
        caseDoc("c1", {
          count: 1,
          note: "to remove",
          tags: ["a", "b"],
          flight: { number: "LH400", departure: "2026-03-01T12:00:00.000Z" },
          passengers: [{ name: "Ann" }],
        }),
      );

      const updated = await cases.updateOne(
        { _id: "c1" },
        {
          $set: { "flight.number": "LH402", status: "CLOSED" },
          $unset: { note: "" },
          $inc: { count: 2, priority: 5 },
          $push: { passengers: { name: "Bob", seat: "12A" } },
          $addToSet: { tags: "a" },
        },
      );
      const expected = caseDoc("c1", {
        status: "CLOSED",
        priority: 6,
        count: 3,
        tags: ["a", "b"],
        flight: { number: "LH402", departure: "2026-03-01T12:00:00.000Z" },
        passengers: [{ name: "Ann" }, { name: "Bob", seat: "12A" }],
      });
      expect(updated).toEqual(expected);
      expect(await cases.get("c1")).toEqual(expected);

      const pulled = await cases.updateOne(
        { "flight.number": "LH402" },
        {
          $pull: { tags: "a" },
          $addToSet: { passengers: { name: "Ann" } },
          $setOnInsert: { note: "no upsert" },
        },
      );
      expect(pulled?.tags).toEqual(["b"]);
      expect(pulled?.passengers).toHaveLength(2);
      expect(pulled?.note).toBeUndefined();
    });

    it("updates nothing when nothing matches, and refuses a replacement document", async () => {
      await cases.insert(caseDoc("c1"));

      expect(await cases.updateOne({ _id: "missing" }, { $set: { status: "CLOSED" } })).toBeUndefined();
      await expect(cases.updateOne({ _id: "c1" }, { status: "CLOSED" })).rejects.toThrow();
      expect(await cases.get("c1")).toEqual(caseDoc("c1"));
    });

    it("deletes one or many matches and reports how many", async () => {
      await insertAll([
        caseDoc("c1", { airport: "FRA" }),
        caseDoc("c2", { airport: "FRA" }),
        caseDoc("c3", { airport: "MUC" }),
        caseDoc("c4", { airport: "BER" }),
      ]);

      expect(await cases.deleteOne({ airport: "BER" })).toBe(true);
      expect(await cases.deleteOne({ airport: "BER" })).toBe(false);
      expect(await cases.deleteMany({ airport: "FRA" })).toBe(2);
      expect(await cases.deleteMany({ airport: "FRA" })).toBe(0);
      expect((await cases.findAll({})).map((doc) => doc._id)).toEqual(["c3"]);
    });

    it("compares one field with a number as MongoDB does: numbers, arrays of them, missing, null, text and dates", async () => {
      await insertAll([
        caseDoc("c1", { count: 1 }),
        caseDoc("c2", { count: 5 }),
        caseDoc("c3", { count: 9 }),
        caseDoc("c4", { count: [2, 12] as unknown as number }),
        caseDoc("c5"),
        caseDoc("c6", { count: null as unknown as number }),
        caseDoc("c7", { count: "3" as unknown as number }),
        caseDoc("c8", { count: new Date(0) as unknown as number }),
        caseDoc("c9", { count: -0.5 }),
      ]);
      const ids = async (filter: Filter) => (await cases.findAll(filter)).map((doc) => doc._id).sort();

      expect(await ids({ count: { $lt: 5 } })).toEqual(["c1", "c4", "c9"]);
      expect(await ids({ count: { $lte: 5 } })).toEqual(["c1", "c2", "c4", "c9"]);
      expect(await ids({ count: { $gt: 5 } })).toEqual(["c3", "c4"]);
      expect(await ids({ count: { $gte: 9 } })).toEqual(["c3", "c4"]);
      expect(await cases.deleteMany({ count: { $lt: 2 } })).toBe(2);
      expect(await ids({})).toEqual(["c2", "c3", "c4", "c5", "c6", "c7", "c8"]);
    });

    it("filters with $in, ranges over ISO timestamps, $or, dotted paths and $elemMatch", async () => {
      await insertAll([
        caseDoc("c1", {
          airport: "FRA",
          createdAt: "2026-03-01T08:00:00.000Z",
          flight: { number: "LH400" },
          passengers: [{ name: "Ann", seat: "1A" }],
        }),
        caseDoc("c2", {
          airport: "MUC",
          createdAt: "2026-03-02T08:00:00.000Z",
          flight: { number: "LH401" },
          passengers: [{ name: "Ann" }, { name: "Bob", seat: "2B" }],
        }),
        caseDoc("c3", { airport: "BER", createdAt: "2026-03-03T08:00:00.000Z", status: "CLOSED" }),
        caseDoc("c4", { airport: "HAM", createdAt: "2026-03-04T08:00:00.000Z", priority: 9 }),
      ]);
      const ids = async (filter: Record<string, unknown>) =>
        (await cases.findAll(filter, { sort: { _id: 1 } })).map((doc) => doc._id);

      expect(await ids({ airport: { $in: ["MUC", "BER", "CDG"] } })).toEqual(["c2", "c3"]);
      expect(
        await ids({ createdAt: { $gte: "2026-03-02T08:00:00.000Z", $lt: "2026-03-04T08:00:00.000Z" } }),
      ).toEqual(["c2", "c3"]);
      expect(await ids({ $or: [{ status: "CLOSED" }, { priority: { $gt: 5 } }] })).toEqual(["c3", "c4"]);
      expect(await ids({ "flight.number": "LH401" })).toEqual(["c2"]);
      expect(await ids({ passengers: { $elemMatch: { name: "Ann", seat: { $exists: false } } } })).toEqual([
        "c2",
      ]);
      expect(await ids({ "passengers.name": "Ann" })).toEqual(["c1", "c2"]);
      expect(await cases.count({ airport: { $in: ["FRA", "HAM"] } })).toBe(2);
      expect(await cases.count()).toBe(4);
    });

    it("finds, counts, updates and deletes by _id, $eq and $in, alone or with other conditions", async () => {
      await insertAll([
        caseDoc("c3", { priority: 3 }),
        caseDoc("c1", { priority: 1, status: "CLOSED" }),
        caseDoc("c2", { priority: 2 }),
        caseDoc("x1", { priority: 9 }),
      ]);
      const ids = async (filter: Record<string, unknown>) =>
        (await cases.findAll(filter, { sort: { priority: -1 } })).map((doc) => doc._id);

      expect(await ids({ _id: { $in: ["c2", "missing", "c1", "c2"] } })).toEqual(["c2", "c1"]);
      expect(await ids({ _id: { $in: [] } })).toEqual([]);
      expect(await ids({ _id: { $in: ["c1", "c2", "c3"] }, status: "OPEN" })).toEqual(["c3", "c2"]);
      expect(await ids({ _id: { $eq: "c3" } })).toEqual(["c3"]);
      expect(await ids({ _id: { $regex: "^c" }, priority: { $gt: 1 } })).toEqual(["c3", "c2"]);
      expect(await ids({ _id: { $nin: ["c1", "c2"] } })).toEqual(["x1", "c3"]);
      expect((await cases.findOne({ _id: "c1", status: "OPEN" }))?._id).toBeUndefined();
      expect((await cases.findOne({ _id: "c1", status: "CLOSED" }))?._id).toBe("c1");
      expect((await cases.findOne({ _id: { $in: ["c2", "c3"] } }, { sort: { priority: 1 } }))?._id).toBe(
        "c2",
      );
      expect(await cases.count({ _id: { $in: ["c1", "x1", "nope"] } })).toBe(2);

      expect((await cases.updateOne({ _id: { $eq: "c2" } }, { $set: { note: "seen" } }))?.note).toBe("seen");
      expect(await cases.deleteMany({ _id: { $in: ["c1", "c3", "nope"] } })).toBe(2);
      expect(await cases.deleteOne({ _id: "c1" })).toBe(false);
      expect(await ids({})).toEqual(["x1", "c2"]);
    });

    it("answers equality on the leading fields of an index as without the index, before and after changes", async () => {
      const plain = harness.store.collection<CaseDoc>(`plain_${collectionNumber}`);
      const docs = indexedDocs();
      const half = Math.floor(docs.length / 2);
      for (const doc of docs.slice(0, half)) await Promise.all([cases.insert(doc), plain.insert(doc)]);
      // Declared over documents already there, then kept up by the writes that follow.
      await cases.ensureIndex({ keys: { airport: 1, status: 1, priority: 1 } });
      await cases.ensureIndex({ keys: { "flight.number": 1, status: 1 } });
      await cases.ensureIndex({ keys: { tags: 1 } });
      for (const doc of docs.slice(half)) await Promise.all([cases.insert(doc), plain.insert(doc)]);
      const answers = async (collection: DocumentCollection<CaseDoc>) =>
        Promise.all(
          INDEXED_FILTERS.map(async (filter) => ({
            filter,
            ids: (await collection.findAll(filter)).map((doc) => doc._id).sort(),
            count: await collection.count(filter),
            page: (await collection.find(filter, { sort: { priority: -1 }, limit: 2 })).items.map(
              (d) => d._id,
            ),
            first: (await collection.findOne(filter, { sort: { createdAt: 1 } }))?._id ?? null,
          })),
        );

      expect(await answers(cases)).toEqual(await answers(plain));
      expect(await cases.count({ airport: "FRA", status: "OPEN", priority: 1 })).toBe(4);
      expect((await cases.findAll({ airport: "FRA", status: null })).map((d) => d._id).sort()).toEqual([
        "d4",
        "d5",
      ]);

      for (const collection of [cases, plain]) {
        await collection.updateOne({ _id: "d1" }, { $set: { airport: "MUC", status: "CLOSED" } });
        await collection.updateOne({ _id: "d2" }, { $unset: { status: "" }, $set: { tags: ["late"] } });
        await collection.updateOne(
          { airport: "FRA", status: "OPEN", priority: "2" },
          { $set: { priority: 2 } },
        );
        await collection.put(caseDoc("d3", { airport: "BER", flight: { number: "LH400" } }));
        await collection.deleteOne({ _id: "d9" });
        await collection.deleteMany({ airport: "FRA", status: "CLOSED" });
        await collection.insert(caseDoc("d20", { status: "CLOSED", priority: 2 }));
      }
      expect(await answers(cases)).toEqual(await answers(plain));
      expect((await cases.findAll({ airport: "FRA", status: "CLOSED" })).map((d) => d._id)).toEqual(["d20"]);
    });

    it("sorts ascending and descending, breaking ties by _id", async () => {
      const docs = [
        caseDoc("c4", { priority: 2 }),
        caseDoc("c1", { priority: 1 }),
        caseDoc("c3", { priority: 2 }),
        caseDoc("c2", { priority: 3 }),
        caseDoc("c5", { priority: 1 }),
      ];
      await insertAll(docs);

      expect((await cases.findAll({}, { sort: { priority: 1 } })).map((doc) => doc._id)).toEqual([
        "c1",
        "c5",
        "c3",
        "c4",
        "c2",
      ]);
      expect((await cases.findAll({}, { sort: { priority: -1 }, limit: 3 })).map((doc) => doc._id)).toEqual([
        "c2",
        "c3",
        "c4",
      ]);
      expect((await cases.findOne({ priority: { $lt: 3 } }, { sort: { priority: -1 } }))?._id).toBe("c3");
    });

    it("walks every page of a sort with ties exactly once, in order", async () => {
      const docs = Array.from({ length: 23 }, (_, i) =>
        caseDoc(`case-${String((i * 7) % 23).padStart(2, "0")}`, {
          createdAt: `2026-03-01T${String(10 + Math.floor(i / 3)).padStart(2, "0")}:00:00.000Z`,
        }),
      );
      await insertAll(docs);

      const pages = await walkPages(cases, {}, { sort: { createdAt: -1 }, limit: 4 });

      expect(pages.map((page) => page.length)).toEqual([4, 4, 4, 4, 4, 3]);
      expect(pages.flat()).toEqual(expectedOrder(docs, { createdAt: -1 }));
    });

    it("walks pages of a filtered query over mixed directions, dotted paths and null or missing keys", async () => {
      const departures = [null, "2026-03-01T09:00:00.000Z", "2026-03-01T11:00:00.000Z", undefined];
      const docs = Array.from({ length: 17 }, (_, i) => {
        const departure = departures[i % departures.length];
        return caseDoc(`c${String(i).padStart(2, "0")}`, {
          status: i % 5 === 4 ? "CLOSED" : "OPEN",
          priority: i % 3,
          ...(departure === undefined ? {} : { flight: { number: `LH${i}`, departure } }),
        });
      });
      await insertAll(docs);
      const open = docs.filter((doc) => doc.status === "OPEN");

      for (const sort of [
        { "flight.departure": 1, priority: -1 },
        { "flight.departure": -1, priority: 1 },
      ] satisfies SortSpec[]) {
        const pages = await walkPages(cases, { status: "OPEN" }, { sort, limit: 3 });
        expect(pages.flat()).toEqual(expectedOrder(open, sort));
      }
    });

    it("returns the same page for a cursor after documents are inserted before its position", async () => {
      await insertAll(
        Array.from({ length: 10 }, (_, i) => caseDoc(`c${i}`, { createdAt: `2026-03-01T1${i}:00:00.000Z` })),
      );
      const first = await cases.find({}, { sort: { createdAt: 1 }, limit: 4 });
      const second = await cases.find({}, { sort: { createdAt: 1 }, limit: 4, cursor: first.nextCursor! });

      await insertAll([
        caseDoc("early-1", { createdAt: "2026-03-01T00:00:00.000Z" }),
        caseDoc("early-2", { createdAt: "2026-03-01T11:00:00.000Z" }),
        caseDoc("a-tie-before", { createdAt: "2026-03-01T13:00:00.000Z" }),
      ]);
      const again = await cases.find({}, { sort: { createdAt: 1 }, limit: 4, cursor: first.nextCursor! });

      expect(first.items.map((doc) => doc._id)).toEqual(["c0", "c1", "c2", "c3"]);
      expect(again).toEqual(second);
      expect(again.items.map((doc) => doc._id)).toEqual(["c4", "c5", "c6", "c7"]);
    });

    it("refuses garbage cursors and cursors from another sort", async () => {
      await insertAll(Array.from({ length: 3 }, (_, i) => caseDoc(`c${i}`, { priority: i })));
      const { nextCursor } = await cases.find({}, { sort: { priority: 1 }, limit: 1 });
      const forged = Buffer.from(JSON.stringify(["x", [1, "c0"]])).toString("base64url");

      for (const [cursor, sort] of [
        [nextCursor!, { priority: -1 }],
        [nextCursor!, undefined],
        ["not a cursor", { priority: 1 }],
        ["", { priority: 1 }],
        [forged, { priority: 1 }],
      ] as const) {
        await expect(cases.find({}, { sort, cursor })).rejects.toThrow(InvalidCursorError);
      }
      expect((await cases.find({}, { sort: { priority: 1 }, cursor: nextCursor! })).items).toHaveLength(2);
    });

    it("pages 50 documents by default and at most 500", async () => {
      await Promise.all(
        Array.from({ length: 501 }, (_, i) => cases.insert(caseDoc(`c${String(i).padStart(3, "0")}`))),
      );

      const byDefault = await cases.find({});
      const clamped = await cases.find({}, { limit: 10_000 });
      const last = await cases.find({}, { limit: 10_000, cursor: clamped.nextCursor! });

      expect(byDefault.items).toHaveLength(50);
      expect(byDefault.hasMore).toBe(true);
      expect(clamped.items).toHaveLength(500);
      expect(last).toEqual({ items: [caseDoc("c500")], hasMore: false, nextCursor: null });
    });
  });
}

describeDocumentStore("MemoryDocumentStore", async () => {
  const store = new MemoryDocumentStore();
  return { store, dispose: () => store.close() };
});

describe("MemoryDocumentStore indexes", () => {
  it("returns unsorted matches found through an index in natural order, also under a limit", async () => {
    const store = new MemoryDocumentStore();
    const indexed = store.collection<CaseDoc>("indexed");
    const plain = store.collection<CaseDoc>("plain");
    await indexed.ensureIndex({ keys: { airport: 1, status: 1, priority: 1 } });
    for (const doc of indexedDocs()) await Promise.all([indexed.insert(doc), plain.insert(doc)]);
    // Replaced documents keep their place.
    for (const collection of [indexed, plain]) {
      await collection.put(caseDoc("d1", { priority: 2 }));
      await collection.updateOne({ _id: "d13" }, { $set: { priority: 2 } });
    }

    for (const filter of INDEXED_FILTERS) {
      for (const limit of [0, 2]) {
        const ids = async (collection: DocumentCollection<CaseDoc>) =>
          (await collection.findAll(filter, { limit })).map((doc) => doc._id);
        expect(await ids(indexed)).toEqual(await ids(plain));
      }
    }
    expect((await indexed.findAll({ airport: "FRA", priority: 2 })).map((doc) => doc._id)).toEqual([
      "d1",
      "d2",
      "d5",
      "d13",
    ]);
  });

  it("tells a date from its ISO text in filters, however often either is asked", async () => {
    const docs = new MemoryDocumentStore().collection<Doc & { at: unknown }>("dated");
    const at = "2026-03-01T10:00:00.000Z";
    await docs.insert({ _id: "date", at: new Date(at) });
    await docs.insert({ _id: "text", at });

    for (let round = 0; round < 2; round++) {
      expect((await docs.findAll({ at })).map((doc) => doc._id)).toEqual(["text"]);
      expect((await docs.findAll({ at: new Date(at) })).map((doc) => doc._id)).toEqual(["date"]);
      expect((await docs.findAll({ at: { $lt: new Date("2027-01-01") } })).map((doc) => doc._id)).toEqual([
        "date",
      ]);
      expect((await docs.findAll({ at: { $lt: "2027-01-01" } })).map((doc) => doc._id)).toEqual(["text"]);
    }
  });
});

describe("MemoryDocumentStore copies", () => {
  it("keeps a member named __proto__ as a member, not as the copy's prototype", async () => {
    const docs = new MemoryDocumentStore().collection<Doc & Record<string, unknown>>("raw");
    const written = JSON.parse('{"_id":"d1","__proto__":{"polluted":true},"nested":{"__proto__":[1]}}');
    await docs.insert(written);

    const read = await docs.get("d1");
    expect(Object.getPrototypeOf(read)).toBe(Object.prototype);
    expect((read as { polluted?: boolean }).polluted).toBeUndefined();
    expect(Object.keys(read!)).toEqual(["_id", "__proto__", "nested"]);
    expect(Object.getOwnPropertyDescriptor(read!.nested, "__proto__")?.value).toEqual([1]);

    // mingo refuses to set such a member; the document stays as it was.
    await expect(
      docs.updateOne({ _id: "d1" }, JSON.parse('{"$set":{"__proto__":{"polluted":true},"plain":1}}')),
    ).rejects.toThrow();
    const after = await docs.get("d1");
    expect(Object.getPrototypeOf(after)).toBe(Object.prototype);
    expect(after).toEqual(read);
  });
});

describeAgainstMongo("MongoDB contract", "contract", (connect) => {
  describeDocumentStore("MongoDocumentStore", async () => {
    const store = await connect();
    return { store, dispose: () => store.close() };
  });
});

await describeAgainstRedis(
  "RedisDocumentStore",
  "document-store",
  (options) => RedisDocumentStore.open(options),
  describeDocumentStore,
);
