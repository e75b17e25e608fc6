import { randomUUID } from "node:crypto";
import { MongoClient } from "mongodb";
import { afterAll, describe } from "vitest";
import { MongoDocumentStore } from "../../src/runtime/mongo/document-store.js";

/**
 * Runs a contract "against MongoDB" when MONGODB_URL is set (skipped with a printed reason when it
 * is not), in a database of its own named from `database`, dropped at the end; `connect` opens a
 * store on it.
 */
export function describeAgainstMongo(
  suite: string,
  database: string,
  describeContract: (connect: () => Promise<MongoDocumentStore>) => void,
): void {
  const mongoUrl = process.env.MONGODB_URL;
  if (!mongoUrl) console.warn(`${suite} tests skipped: MONGODB_URL is not set`);

  describe.skipIf(!mongoUrl)("against MongoDB", () => {
    const dbName = `${database}_${randomUUID().replaceAll("-", "").slice(0, 16)}`;

    afterAll(async () => {
      const client = await MongoClient.connect(mongoUrl!);
      await client.db(dbName).dropDatabase();
      await client.close();
    });

    describeContract(() => MongoDocumentStore.connect(mongoUrl!, dbName));
  });
}
