import { describe, expect, it } from "vitest";
import { compose } from "../../src/app/cases/case-dashboard.js";
import { ManualClock } from "../../src/runtime/clock.js";

describe("compose: the composition route's sub-calls (spec 4.1, 8.2)", () => {
  it("starts every sub-call at once and returns all parts when they answer in time", async () => {
    const clock = new ManualClock();
    const started: string[] = [];
    let open: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const call = (name: string) => async () => {
      started.push(name);
      await gate;
      return name.toUpperCase();
    };
    const answer = compose({ a: call("a"), b: call("b") }, clock);
    await clock.advance(0);
    expect(started).toEqual(["a", "b"]);
    open();
    expect(await answer).toEqual({ parts: { a: "A", b: "B" }, partialFailures: [] });
    expect(clock.pendingTimers()).toBe(0);
  });

  it("names a sub-call that outlasts the timeout and one that fails, and returns the rest", async () => {
    const clock = new ManualClock();
    let settled = false;
    const answer = compose(
      {
        cases: async () => ({ total: 1 }),
        demand: () => new Promise<never>(() => {}),
        "manual-review": async () => {
          throw new Error("store down");
        },
      },
      clock,
    ).finally(() => {
      settled = true;
    });
    await clock.advance(2_999);
    expect(settled).toBe(false);
    await clock.advance(1);
    expect(await answer).toEqual({
      parts: { cases: { total: 1 }, demand: null, "manual-review": null },
      partialFailures: [
        { domain: "demand", reason: "no answer within 3000 ms" },
        { domain: "manual-review", reason: "store down" },
      ],
    });
  });
});
