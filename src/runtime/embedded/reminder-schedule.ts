import type { Clock, TimerHandle } from "../clock.js";

/** One armed reminder: which actor's, and when. */
export class ArmedReminder {
  constructor(
    /** The reminder's key in the state store, which names it in the schedule too. */
    readonly key: string,
    readonly type: string,
    readonly id: string,
    readonly name: string,
    readonly dueAt: number,
    /** Arming order: reminders due at the same time fire in it. */
    readonly sequence: number,
  ) {}
}

/**
 * The armed reminders of a runtime behind a single clock timer, set for the earliest of them. A
 * timer per reminder costs a Node timer with its closures and handle, about a kilobyte, and every
 * review item a case raises arms one for its SLA. The reminders wait in a binary heap by due time,
 * then arming order; one disarmed or armed again stays in the heap and is skipped when it comes
 * up, until such leftovers outnumber the live ones and the heap is rebuilt without them.
 */
export class ReminderSchedule {
  private readonly live = new Map<string, ArmedReminder>();
  private heap: ArmedReminder[] = [];
  private sequence = 0;
  private timer: TimerHandle | undefined;
  private timerDueAt = Number.POSITIVE_INFINITY;

  constructor(
    private readonly clock: Clock,
    private readonly fire: (reminder: ArmedReminder) => void,
  ) {}

  /** Arms the reminder `key` names for `dueAt`, in place of any earlier arming of it. */
  arm(key: string, type: string, id: string, name: string, dueAt: number): void {
    const reminder = new ArmedReminder(key, type, id, name, dueAt, this.sequence++);
    this.live.set(key, reminder);
    this.push(reminder);
    this.dropLeftoversIfMany();
    this.setTimer();
  }

  disarm(key: string): void {
    if (this.live.delete(key)) this.dropLeftoversIfMany();
  }

  /** Disarms everything and stops the timer. */
  clear(): void {
    this.timer?.cancel();
    this.timer = undefined;
    this.timerDueAt = Number.POSITIVE_INFINITY;
    this.live.clear();
    this.heap = [];
  }

  private setTimer(): void {
    while (this.heap.length > 0 && !this.isLive(this.heap[0]!)) this.pop();
    const next = this.heap[0];
    if (!next || (this.timer && this.timerDueAt <= next.dueAt)) return;
    this.timer?.cancel();
    this.timerDueAt = next.dueAt;
    this.timer = this.clock.setTimer(() => this.fireDue(), next.dueAt - this.clock.now());
  }

  private fireDue(): void {
    this.timer = undefined;
    this.timerDueAt = Number.POSITIVE_INFINITY;
    const now = this.clock.now();
    while (this.heap.length > 0 && this.heap[0]!.dueAt <= now) {
      const reminder = this.pop();
      if (!this.isLive(reminder)) continue;
      this.live.delete(reminder.key);
      this.fire(reminder);
    }
    this.setTimer();
  }

  private isLive(reminder: ArmedReminder): boolean {
    return this.live.get(reminder.key) === reminder;
  }

  private dropLeftoversIfMany(): void {
    const leftovers = this.heap.length - this.live.size;
    if (leftovers < 1024 || leftovers < this.live.size) return;
    this.heap = [...this.live.values()].sort(earlier);
  }

  private push(reminder: ArmedReminder): void {
    const heap = this.heap;
    let i = heap.push(reminder) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (earlier(heap[parent]!, reminder) <= 0) break;
      heap[i] = heap[parent]!;
      i = parent;
    }
    heap[i] = reminder;
  }

  private pop(): ArmedReminder {
    const heap = this.heap;
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length === 0) return top;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const child = right < heap.length && earlier(heap[right]!, heap[left]!) < 0 ? right : left;
      if (earlier(last, heap[child]!) <= 0) break;
      heap[i] = heap[child]!;
      i = child;
    }
    heap[i] = last;
    return top;
  }
}

function earlier(a: ArmedReminder, b: ArmedReminder): number {
  return a.dueAt - b.dueAt || a.sequence - b.sequence;
}
