import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/runtime/clock.js";
import { type ArmedReminder, ReminderSchedule } from "../../src/runtime/embedded/reminder-schedule.js";

function schedule() {
  const clock = new ManualClock();
  const fired: string[] = [];
  const reminders = new ReminderSchedule(clock, (reminder: ArmedReminder) =>
    fired.push(`${reminder.id}@${reminder.dueAt - start}`),
  );
  const start = clock.now();
  const arm = (id: string, inMs: number) => reminders.arm(`k-${id}`, "T", id, "r", start + inMs);
  return { clock, fired, reminders, arm };
}

describe("reminder schedule", () => {
  it("fires what is due when it is due, earliest first and in arming order on ties", async () => {
    const { clock, fired, arm } = schedule();
    for (const [id, inMs] of [
      ["c", 300],
      ["a", 100],
      ["b", 100],
      ["d", 200],
    ] as const) {
      arm(id, inMs);
    }
    await clock.advance(150);
    expect(fired).toEqual(["a@100", "b@100"]);
    arm("e", 50);
    await clock.advance(500);
    expect(fired).toEqual(["a@100", "b@100", "e@50", "d@200", "c@300"]);
    expect(clock.pendingTimers()).toBe(0);
  });

  it("keeps only the last arming of a reminder and none once disarmed, among thousands of leftovers", async () => {
    const { clock, fired, reminders, arm } = schedule();
    for (let i = 0; i < 3_000; i++) arm(`r${i}`, 1_000 + i);
    for (let i = 0; i < 3_000; i++) if (i % 100 !== 0) reminders.disarm(`k-r${i}`);
    arm("r100", 10);
    arm("r0", 5_000);
    expect(clock.pendingTimers()).toBe(1);

    await clock.advance(10_000);
    expect(fired).toEqual([
      "r100@10",
      ...Array.from({ length: 28 }, (_, n) => `r${(n + 2) * 100}@${1_000 + (n + 2) * 100}`),
      "r0@5000",
    ]);
  });

  it("forgets everything on clear", async () => {
    const { clock, fired, reminders, arm } = schedule();
    arm("a", 100);
    reminders.clear();
    expect(clock.pendingTimers()).toBe(0);
    await clock.advance(1_000);
    expect(fired).toEqual([]);
  });
});
