import type { Task, WorkflowContext } from "@dapr/dapr";
import { ACTIVITY_RETRY, callWithRetry, FIRST_TRY, nextTry, sleep, type Tries } from "../activity-retry.js";
import { BOOK_GROUPS_ACTIVITIES } from "./activities.js";
import type {
  BookGroupsInput,
  BookGroupsOutput,
  BookGroupsProgress,
  GroupStatus,
  GroupToBook,
  LoadedGroups,
} from "./model.js";

/**
 * Load, book, wait and book again, settle (see model.ts). Groups left PENDING behind an open
 * circuit are booked again after `retryInMs`, round after round; the case's BookingActor counts
 * the rounds and fails a group after its last one, so the loop ends. The wave settles once every
 * group is decided.
 */
export async function* bookGroups(
  ctx: WorkflowContext,
  input: BookGroupsInput,
): AsyncGenerator<unknown, BookGroupsOutput, any> {
  ctx.setCustomStatus(progress({ phase: "booking" }));
  const loaded: LoadedGroups = yield* callWithRetry(ctx, BOOK_GROUPS_ACTIVITIES.load, input.request);
  if ("refusal" in loaded) return { refusal: loaded.refusal };

  // A group to book stands at BOOKING until its booking answers.
  const groups = loaded.groups.map(
    (g): GroupStatus =>
      "decided" in g ? g.decided : { groupId: g.groupId, state: "BOOKING", reservationUrn: null },
  );
  let toBook = loaded.groups.flatMap((group, index) => ("order" in group ? [{ group, index }] : []));
  while (toBook.length > 0) {
    const booked: GroupStatus[] = yield* bookInLanes(
      ctx,
      toBook.map((b) => b.group),
      input.concurrentGroupsPerVendor,
    );
    toBook.forEach((b, i) => {
      groups[b.index] = booked[i]!;
    });
    toBook = toBook.filter((_, i) => booked[i]!.state === "PENDING");
    if (toBook.length === 0) break;
    ctx.setCustomStatus(
      progress({ phase: "waiting-to-retry", summary: { caseUrn: loaded.caseUrn, groups } }),
    );
    yield sleep(ctx, input.retryInMs);
    ctx.setCustomStatus(progress({ phase: "booking" }));
  }
  if (loaded.settle) yield* callWithRetry(ctx, BOOK_GROUPS_ACTIVITIES.settle, loaded.settle);
  return { caseUrn: loaded.caseUrn, groups };
}

interface Slot {
  index: number;
  tries: Tries;
  /** The task is the timer before the next attempt, not the attempt. */
  waiting: boolean;
}

/**
 * Books every group: one queue per lane (vendor) in the planned order, each worked off `limit` at
 * a time, all lanes at once; the statuses in the planned order. A booking that throws is tried
 * again after the retry policy's wait (a store outage without counting, `nextTry`); one that runs
 * out of attempts stops every lane from starting more, and is thrown once the bookings under way
 * are done, so a redelivery never races bookings still in flight.
 */
async function* bookInLanes(
  ctx: WorkflowContext,
  planned: readonly GroupToBook[],
  limit: number,
): AsyncGenerator<unknown, GroupStatus[], any> {
  const statuses: GroupStatus[] = new Array(planned.length);
  const lanes = new Map<string, number[]>();
  planned.forEach((group, index) => {
    const lane = lanes.get(group.lane);
    if (lane) lane.push(index);
    else lanes.set(group.lane, [index]);
  });
  const inFlight = new Map<Task<unknown>, Slot>();
  let failure: { error: unknown } | undefined;
  const attempt = (index: number, tries: Tries) =>
    inFlight.set(ctx.callActivity(BOOK_GROUPS_ACTIVITIES.book, planned[index]!.order), {
      index,
      tries,
      waiting: false,
    });
  const startNext = (lane: string) => {
    const index = lanes.get(lane)!.shift();
    if (index !== undefined && !failure) attempt(index, FIRST_TRY);
  };
  for (const [lane, queue] of lanes) {
    const width = Math.max(1, Math.min(limit, queue.length));
    for (let i = 0; i < width; i++) startNext(lane);
  }
  while (inFlight.size > 0) {
    const done: Task<unknown> = yield ctx.whenAny([...inFlight.keys()]);
    const slot = inFlight.get(done)!;
    inFlight.delete(done);
    if (slot.waiting) {
      attempt(slot.index, slot.tries);
      continue;
    }
    if (!done.isFailed) {
      statuses[slot.index] = done.getResult() as GroupStatus;
      startNext(planned[slot.index]!.lane);
      continue;
    }
    const next = failure ? undefined : nextTry(ACTIVITY_RETRY, slot.tries, done.getException());
    if (next) {
      inFlight.set(sleep(ctx, next.waitMs), { index: slot.index, tries: next.tries, waiting: true });
    } else {
      failure ??= { error: done.getException() };
      // Waits before another attempt are abandoned; bookings under way are waited for.
      for (const [task, other] of inFlight) if (other.waiting) inFlight.delete(task);
    }
  }
  if (failure) throw failure.error;
  return statuses;
}

function progress(value: BookGroupsProgress): string {
  return JSON.stringify(value);
}
