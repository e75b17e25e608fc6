import { randomBytes } from "node:crypto";
import {
  BOOKING_EVENTS,
  type OrphanCancelledData,
  type ReconciliationDueData,
} from "../src/domain/events/booking.js";
import type { ReviewItemRequestedData } from "../src/domain/events/review-item.js";
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

/**
 * What became of an orphan room (src/domain/booking/orphan-room.ts): cancelled at the vendor, or
 * handed to an operator with the review item it asked for.
 */
export type OrphanSettlement =
  | { kind: "cancelled"; data: OrphanCancelledData }
  | { kind: "referred"; vendorReservationId: string; request: ReviewItemRequestedData };

const STATE = "reconciliation";
/** The vendor's booking ids of the orphans settled, and how: each is announced once. */
const ORPHANS = "orphans";
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

  /**
   * Announces what became of an orphan room, once per room and outcome: booking.orphan-cancelled,
   * or the review-item.requested a referral asks for (found again next round, it is not asked for
   * again, so an item the operator resolved stays resolved). False when already announced.
   */
  async settleOrphan(args: { settlement: OrphanSettlement; correlationUrn: string }): Promise<boolean> {
    const state = await this.context.state.get<ReconciliationState>(STATE);
    if (!state) return false;
    const { settlement } = args;
    const id =
      settlement.kind === "cancelled" ? settlement.data.vendorReservationId : settlement.vendorReservationId;
    const settled = (await this.context.state.get<Record<string, OrphanSettlement["kind"]>>(ORPHANS)) ?? {};
    if (settled[id] === settlement.kind) return false;
    this.context.state.set(ORPHANS, { ...settled, [id]: settlement.kind });
    const common = { tenant: state.tenant, correlationUrn: args.correlationUrn };
    if (settlement.kind === "cancelled") {
      const { data } = settlement;
      this.context.emit({ type: BOOKING_EVENTS.orphanCancelled, ...common, caseUrn: data.caseUrn, data });
    } else {
      const { request } = settlement;
      this.context.emit({
        type: BOOKING_EVENTS.reviewItemRequested,
        ...common,
        caseUrn: request.caseUrn,
        data: request,
      });
    }
    return true;
  }

  async get(): Promise<ReconciliationState | undefined> {
    return this.context.state.get<ReconciliationState>(STATE);
  }
}

/** One actor per tenant and vendor; the id keeps both readable and free of URN colons. */
export function reconciliationActorId(tenant: string, vendor: string): string {
  return `${tenant.replaceAll(":", ".")}~${vendor}`;
}
