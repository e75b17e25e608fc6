import { describe, expect, it } from "vitest";
import {
  coalesce,
  EVENTS_PATH,
  type EventStream,
  liveOffer,
  OFFER_POLL_MS,
  type Scheduler,
  type ScreenRead,
} from "../../services/passenger-app/src/live.js";

/** A scheduler whose time the test moves. */
function manualScheduler() {
  let now = 0;
  const tasks = new Set<{ every: number; next: number; run: () => void }>();
  const scheduler: Scheduler = {
    every(ms, run) {
      const task = { every: ms, next: now + ms, run };
      tasks.add(task);
      return () => tasks.delete(task);
    },
  };
  const advance = (ms: number) => {
    const end = now + ms;
    for (;;) {
      const due = [...tasks].filter((t) => t.next <= end).sort((a, b) => a.next - b.next)[0];
      if (!due) break;
      now = due.next;
      due.next += due.every;
      due.run();
    }
    now = end;
  };
  return { scheduler, advance, pending: () => tasks.size };
}

function fakeStream() {
  const listeners = new Map<string, (event: { type: string }) => void>();
  const opened: string[] = [];
  let closed = false;
  const stream: EventStream = {
    addEventListener: (type, listener) => listeners.set(type, listener),
    close: () => {
      closed = true;
    },
  };
  return {
    open: (path: string) => {
      opened.push(path);
      return stream;
    },
    emit: (type: string) => listeners.get(type)?.({ type }),
    opened,
    closed: () => closed,
  };
}

describe("the live offer screen", () => {
  it("polls the offer every 30 seconds while it is open, and stops once it is answered", () => {
    const clock = manualScheduler();
    const stream = fakeStream();
    const reloads: (readonly ScreenRead[])[] = [];
    const live = liveOffer({
      openStream: stream.open,
      scheduler: clock.scheduler,
      reload: (r) => reloads.push(r),
    });
    expect(stream.opened).toEqual([EVENTS_PATH]);

    live.offerIs("PROCESSING");
    live.offerIs("OFFER_READY"); // still open: one poll, not two
    clock.advance(OFFER_POLL_MS - 1);
    expect(reloads).toEqual([]);
    clock.advance(1);
    expect(reloads).toEqual([["offer"]]);
    clock.advance(2 * OFFER_POLL_MS);
    expect(reloads).toHaveLength(3);

    live.offerIs("RESOLVED");
    expect(clock.pending()).toBe(0);
    clock.advance(10 * OFFER_POLL_MS);
    expect(reloads).toHaveLength(3);

    live.offerIs("OFFER_READY"); // an operator's compensate can offer again
    clock.advance(OFFER_POLL_MS);
    expect(reloads).toHaveLength(4);
    live.close();
    expect(stream.closed()).toBe(true);
    expect(clock.pending()).toBe(0);
  });

  it("reloads what each event changes, everything on a reset, nothing for other events", () => {
    const clock = manualScheduler();
    const stream = fakeStream();
    const reloads: (readonly ScreenRead[])[] = [];
    liveOffer({ openStream: stream.open, scheduler: clock.scheduler, reload: (r) => reloads.push(r) });
    stream.emit("subcase.offer-ready");
    stream.emit("transport.eta-updated");
    stream.emit("notification.dispatched");
    stream.emit("subcase.locked");
    stream.emit("reset");
    expect(reloads).toEqual([
      ["offer"],
      ["transport"],
      ["notifications"],
      ["offer", "transport", "notifications"],
    ]);
  });

  it("coalesces a burst of reloads into the one running and one more", async () => {
    let runs = 0;
    let release: () => void = () => {};
    const load = coalesce(
      () =>
        new Promise<void>((resolve) => {
          runs++;
          release = resolve;
        }),
    );
    const first = load();
    for (let i = 0; i < 5; i++) void load();
    expect(runs).toBe(1);
    release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(runs).toBe(2);
    release();
    await first;
    expect(runs).toBe(2);
    void load();
    expect(runs).toBe(3);
    release();
  });
});
