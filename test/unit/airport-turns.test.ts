import { describe, expect, it } from "vitest";
import { AIRPORT_TURN_WAIT_MS, AirportTurns } from "../../src/app/allocation/airport-turns.js";
import { ManualClock, settle } from "../../src/runtime/clock.js";

/** A piece of work that starts when its turn comes and ends when the test says. */
function gate() {
  let open!: () => void;
  let fail!: (error: Error) => void;
  const done = new Promise<string>((resolve, reject) => {
    open = () => resolve("done");
    fail = reject;
  });
  return { done, open, fail };
}

describe("AirportTurns", () => {
  it("runs one turn at a time per airport, in arrival order, and other airports alongside", async () => {
    const turns = new AirportTurns(new ManualClock());
    const started: string[] = [];
    const first = gate();
    const second = gate();
    const a = turns.take("ZX|JFK", () => (started.push("first"), first.done));
    const b = turns.take("ZX|JFK", () => (started.push("second"), second.done));
    const other = turns.take("ZX|ORD", async () => (started.push("ORD"), "ord"));
    await settle();
    expect(started).toEqual(["first", "ORD"]);
    await expect(other).resolves.toBe("ord");
    first.open();
    await expect(a).resolves.toBe("done");
    await settle();
    expect(started).toEqual(["first", "ORD", "second"]);
    second.open();
    await expect(b).resolves.toBe("done");
    await settle();
    expect(turns.busy).toBe(0);
  });

  it("starts the next turn when the one before fails, and keeps the failure to its own caller", async () => {
    const turns = new AirportTurns(new ManualClock());
    const first = gate();
    const a = turns.take("ZX|JFK", () => first.done);
    const b = turns.take("ZX|JFK", async () => "second");
    first.fail(new Error("store down"));
    await expect(a).rejects.toThrow("store down");
    await expect(b).resolves.toBe("second");
  });

  it("waits for a stuck turn only AIRPORT_TURN_WAIT_MS by its clock, then lets the next one go", async () => {
    const clock = new ManualClock();
    const turns = new AirportTurns(clock);
    const stuck = gate();
    let secondStarted = false;
    void turns.take("ZX|JFK", () => stuck.done);
    const b = turns.take("ZX|JFK", async () => {
      secondStarted = true;
      return "second";
    });
    await clock.advance(AIRPORT_TURN_WAIT_MS - 1);
    expect(secondStarted).toBe(false);
    await clock.advance(1);
    await expect(b).resolves.toBe("second");
    // The stuck turn ending late leaves no turn behind it waiting.
    stuck.open();
    await settle();
    expect(turns.busy).toBe(0);
  });

  it("counts the wait from when the turn before began, not from when the waiting turn arrived", async () => {
    const clock = new ManualClock();
    const turns = new AirportTurns(clock);
    const first = gate();
    const second = gate();
    const started: string[] = [];
    // A meltdown's waves arrive together; each turn takes less than the wait, the queue more.
    void turns.take("ZX|JFK", () => (started.push("first"), first.done));
    void turns.take("ZX|JFK", () => (started.push("second"), second.done));
    void turns.take("ZX|JFK", async () => started.push("third"));
    await clock.advance(AIRPORT_TURN_WAIT_MS * 0.6);
    first.open();
    await settle();
    expect(started).toEqual(["first", "second"]);
    await clock.advance(AIRPORT_TURN_WAIT_MS * 0.6);
    expect(started).toEqual(["first", "second"]);
    second.open();
    await settle();
    expect(started).toEqual(["first", "second", "third"]);
  });

  it("cancels the wait's timer when the turn before ends in time", async () => {
    const clock = new ManualClock();
    const turns = new AirportTurns(clock);
    const first = gate();
    void turns.take("ZX|JFK", () => first.done);
    const b = turns.take("ZX|JFK", async () => "second");
    await settle();
    expect(clock.pendingTimers()).toBe(1);
    first.open();
    await expect(b).resolves.toBe("second");
    expect(clock.pendingTimers()).toBe(0);
  });
});
