import { randomBytes } from "node:crypto";
import { BATCH_DUE_EVENT, type BatchScope } from "../src/domain/events/allocation.js";
import type { ActorContext } from "../src/runtime/actor-runtime.js";

/** How often BATCH waves run for an airport while approved demand waits (spec 2.4 mode BATCH). */
export const BATCH_INTERVAL_MS = 15 * 60_000;

interface ScheduleState extends BatchScope {
  armed: boolean;
}

const STATE = "schedule";
const REMINDER = "batch-wave";

/** The actor id of an airline's schedule at one airport. */
export function batchScheduleId(scope: BatchScope): string {
  return `${scope.tenant.replaceAll(":", ".")}.${scope.airport}`;
}

/**
 * The BATCH allocation schedule of one airline at one airport: while demand approved under a BATCH
 * policy waits, a reminder fires every 15 minutes and announces `allocation.batch-due`, whose
 * handler runs the waves (an actor turn does no vendor searches). The handler stands the schedule
 * down once no approved demand is left, and the next approval arms it again.
 */
export class AllocationScheduleActor {
  constructor(private readonly context: ActorContext) {}

  /** Arms the reminder unless it is armed already. */
  async arm(scope: BatchScope): Promise<void> {
    const state = await this.context.state.get<ScheduleState>(STATE);
    if (state?.armed) return;
    await this.context.reminders.set(REMINDER, { dueInMs: BATCH_INTERVAL_MS, periodMs: BATCH_INTERVAL_MS });
    this.context.state.set(STATE, { ...scope, armed: true });
  }

  async standDown(): Promise<void> {
    const state = await this.context.state.get<ScheduleState>(STATE);
    if (!state?.armed) return;
    await this.context.reminders.cancel(REMINDER);
    this.context.state.set(STATE, { ...state, armed: false });
  }

  async receiveReminder(name: string): Promise<void> {
    const state = await this.context.state.get<ScheduleState>(STATE);
    if (name !== REMINDER || !state?.armed) return;
    this.context.emit({
      tenant: state.tenant,
      correlationUrn: `urn:trace:${randomBytes(16).toString("hex")}`,
      type: BATCH_DUE_EVENT,
      data: { tenant: state.tenant, airport: state.airport },
    });
  }
}
