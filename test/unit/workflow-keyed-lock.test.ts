import { describe, expect, it } from "vitest";
import { KeyedLock } from "../../src/runtime/embedded/workflow/keyed-lock.js";
import { deferred } from "../support/deferred.js";

describe("KeyedLock", () => {
  it("grants a free lock at once and queues later holders of the same key in arrival order", async () => {
    const lock = new KeyedLock();
    expect(lock.acquire("a")).toBeUndefined();
    const order: string[] = [];
    const second = lock.acquire("a")?.then(() => order.push("second"));
    const third = lock.acquire("a")?.then(() => order.push("third"));
    expect(second).toBeDefined();
    await Promise.resolve();
    expect(order).toEqual([]);

    lock.release("a");
    await second;
    expect(order).toEqual(["second"]);
    lock.release("a");
    await third;
    expect(order).toEqual(["second", "third"]);
    lock.release("a");
    expect(lock.acquire("a")).toBeUndefined();
  });

  it("lets different keys run at the same time", async () => {
    const lock = new KeyedLock();
    const gate = deferred();
    const log: string[] = [];
    const slow = lock.run("a", async () => {
      await gate.promise;
      log.push("a");
    });
    await lock.run("b", async () => {
      log.push("b");
    });
    expect(log).toEqual(["b"]);
    gate.resolve();
    await slow;
    expect(log).toEqual(["b", "a"]);
  });

  it("releases the lock when the work throws", async () => {
    const lock = new KeyedLock();
    await expect(lock.run("a", async () => Promise.reject(new Error("nope")))).rejects.toThrow("nope");
    expect(lock.acquire("a")).toBeUndefined();
  });

  it("tells when no lock is held any more", async () => {
    const lock = new KeyedLock();
    await lock.idle();
    const gate = deferred();
    const held = lock.run("a", () => gate.promise);
    let idle = false;
    const waiting = lock.idle().then(() => {
      idle = true;
    });
    await Promise.resolve();
    expect(idle).toBe(false);
    gate.resolve();
    await held;
    await waiting;
    expect(idle).toBe(true);
  });
});
