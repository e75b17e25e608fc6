import { afterEach, describe, expect, it, vi } from "vitest";
import { LONGEST_TIMEOUT_MS, systemClock } from "../../src/runtime/clock.js";

const DAY_MS = 86_400_000;

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("the system clock's timers", () => {
  it("hold a wait longer than setTimeout can (an offer's deadline 100 days away) until it is due", () => {
    vi.useFakeTimers();
    const armed = vi.spyOn(globalThis, "setTimeout");
    const fired = vi.fn();
    systemClock.setTimer(fired, 100 * DAY_MS);

    // Node runs a setTimeout longer than 2^31 - 1 ms after 1 ms: no call may ask for more.
    expect(Math.max(...armed.mock.calls.map((call) => Number(call[1])))).toBeLessThanOrEqual(
      LONGEST_TIMEOUT_MS,
    );
    vi.advanceTimersByTime(99 * DAY_MS);
    expect(fired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(DAY_MS);
    expect(fired).toHaveBeenCalledOnce();
  });

  it("cancels a long wait between its steps", () => {
    vi.useFakeTimers();
    const fired = vi.fn();
    const timer = systemClock.setTimer(fired, 60 * DAY_MS);
    vi.advanceTimersByTime(30 * DAY_MS);
    timer.cancel();
    vi.advanceTimersByTime(60 * DAY_MS);
    expect(fired).not.toHaveBeenCalled();
  });
});
