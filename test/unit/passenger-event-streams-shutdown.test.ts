import { describe, expect, it } from "vitest";
import { PassengerEventStreams } from "../../services/passenger-api/passenger-event-streams.js";
import { ManualClock } from "../../src/runtime/clock.js";
import { MemoryDocumentStore } from "../../src/runtime/memory/document-store.js";

describe("passenger event streams at shutdown", () => {
  it("ends the open streams, and a stream started after shutdown began as soon as it starts", async () => {
    const streams = new PassengerEventStreams(
      new MemoryDocumentStore(),
      new ManualClock("2026-03-01T10:00:00Z"),
    );
    const ended: string[] = [];
    streams.track(() => ended.push("before"));
    streams.endAll();
    expect(ended).toEqual(["before"]);

    // A client reconnecting over a kept-alive connection while the server closes.
    const untrack = streams.track(() => ended.push("after"));
    expect(ended).toEqual(["before"]);
    await Promise.resolve();
    expect(ended).toEqual(["before", "after"]);
    untrack();
  });
});
