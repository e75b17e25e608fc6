import { MongoClient } from "mongodb";
import { ClientOfflineError, ErrorReply, SocketClosedUnexpectedlyError } from "redis";
import { describe, expect, it } from "vitest";
import { MongoDocumentStore } from "../../src/runtime/mongo/document-store.js";
import { redisFailure } from "../../src/runtime/redis/redis-connection.js";
import { StoreUnavailableError } from "../../src/runtime/store-unavailable-error.js";
import { freePort } from "../support/platform.js";

describe("redisFailure", () => {
  const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:6379"), {
    code: "ECONNREFUSED",
    syscall: "connect",
  });

  it.each([
    ["a client that is not connected", new ClientOfflineError()],
    ["a connection lost", new SocketClosedUnexpectedlyError()],
    ["a connection refused", refused],
    ["Redis loading its data", new ErrorReply("LOADING Redis is loading the dataset in memory")],
    ["a read-only replica", new ErrorReply("READONLY You can't write against a read only replica.")],
    ["a replica without its master", new ErrorReply("MASTERDOWN Link with MASTER is down")],
    ["Redis out of memory", new ErrorReply("OOM command not allowed when used memory > 'maxmemory'.")],
    ["a script running", new ErrorReply("BUSY Redis is busy running a script.")],
  ])("is the store unavailable for %s, with the driver's error as its cause", (_, error) => {
    const failure = redisFailure(error);
    expect(failure).toBeInstanceOf(StoreUnavailableError);
    expect((failure as StoreUnavailableError).cause).toBe(error);
  });

  it.each([
    [
      "a key of another type",
      new ErrorReply("WRONGTYPE Operation against a key holding the wrong kind of value"),
    ],
    ["a key that exists already", new ErrorReply("BUSYKEY Target key name already exists.")],
    [
      "a script error",
      new ErrorReply("ERR user_script:1: Script attempted to access nonexistent global variable"),
    ],
    ["a bug", new TypeError("x is not a function")],
  ])("leaves %s as it is", (_, error) => {
    expect(redisFailure(error)).toBe(error);
  });
});

describe("MongoDocumentStore", () => {
  it("fails as the store unavailable when no server can be reached, with the driver's error as its cause", async () => {
    const client = new MongoClient(`mongodb://127.0.0.1:${await freePort()}`, {
      serverSelectionTimeoutMS: 100,
    });
    try {
      const cases = new MongoDocumentStore(client.db("unreachable")).collection("cases");
      const failure = await cases.get("c1").catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(StoreUnavailableError);
      expect((failure as StoreUnavailableError).cause).toMatchObject({ name: "MongoServerSelectionError" });
    } finally {
      await client.close();
    }
  });
});
