import { randomBytes } from "node:crypto";
import { BOOKING_EVENTS, type ReconciliationDueData } from "../src/domain/events/booking.js";
import type { ActorContext } from "../src/runtime/actor-runtime.js";

export interface ReconciliationSchedule {
  tenant: string;
  vendor: string;
  intervalMs: number;
}

export interface ReconciliationState extends ReconciliationSchedule {
  /** ISO timestamp: the vendor's changes up to here have been applied. */
  since: string;
  lastPolledAt: string | null;
}

const STATE = "reconciliation";
const POLL = "poll";

/**
 * The reconciliation cursor of one tenant's account at one hotel vendor (spec 6.3: vendors do not
 * push, the service polls every 5 to 60 minutes). A repeating reminder says when to poll; the poll
 * itself (a vendor call) runs in the booking flow on `booking.reconciliation-due`, which moves the
 * cursor forward once the vendor's changes are applied, so a failed poll is simply asked again.
 */
export class ReconciliationActor {
  constructor(private readonly context: ActorContext) {}

  /** Starts polling, or changes the interval; the cursor starts now for an account seen first. */
  async schedule(schedule: ReconciliationSchedule): Promise<ReconciliationState> {
    const current = await this.context.state.get<ReconciliationState>(STATE);
    if (current && current.intervalMs === schedule.intervalMs) return current;
    const next: ReconciliationState = {
      ...schedule,
      since: current?.since ?? new Date(this.context.clock.now()).toISOString(),
      lastPolledAt: current?.lastPolledAt ?? null,
    };
    this.context.state.set(STATE, next);
    await this.context.reminders.set(POLL, { dueInMs: schedule.intervalMs, periodMs: schedule.intervalMs });
    return next;
  }

  async receiveReminder(name: string): Promise<void> {
    const state = await this.context.state.get<ReconciliationState>(STATE);
    if (name !== POLL || !state) return;
    const data: ReconciliationDueData = { tenant: state.tenant, vendor: state.vendor, since: state.since };
    this.context.emit({
      type: BOOKING_EVENTS.reconciliationDue,
      tenant: state.tenant,
      correlationUrn: `urn:trace:${randomBytes(16).toString("hex")}`,
      data,
    });
  }

  /** The vendor's changes up to `since` are applied; the cursor never moves back. */
  async advance(args: { since: string }): Promise<ReconciliationState | undefined> {
    const state = await this.context.state.get<ReconciliationState>(STATE);
    if (!state) return undefined;
    const next: ReconciliationState = {
      ...state,
      since: Date.parse(args.since) > Date.parse(state.since) ? args.since : state.since,
      lastPolledAt: new Date(this.context.clock.now()).toISOString(),
    };
    this.context.state.set(STATE, next);
    return next;
  }

  async get(): Promise<ReconciliationState | undefined> {
    return this.context.state.get<ReconciliationState>(STATE);
  }
}

/** One actor per tenant and vendor; the id keeps both readable and free of URN colons. */
export function reconciliationActorId(tenant: string, vendor: string): string {
  return `${tenant.replaceAll(":", ".")}~${vendor}`;
}
