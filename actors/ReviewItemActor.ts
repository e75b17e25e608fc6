import { DomainError } from "../src/domain/domain-error.js";
import type { RecordedChange } from "../src/domain/case.js";
import {
  type Acting,
  assign,
  type BookingAnswer,
  breachSla,
  claim,
  escalate,
  everyGroupBooked,
  type NewReviewItem,
  openReviewItem,
  REBOOKED,
  type Rebooking,
  type Recommendation,
  recordBookingAnswer,
  recordRelaxation,
  replaceSplitGroup,
  requestRebooking,
  resolve,
  type ReviewItem,
  takeForAction,
  withRecommendations,
} from "../src/domain/review-item.js";
import type { EventDataByType } from "../src/domain/events/catalogue.js";
import {
  REVIEW_ITEM_EVENT,
  type ReviewItemEventDetails,
  type ReviewItemEventType,
} from "../src/domain/events/review-item.js";
import type { ActorContext } from "../src/runtime/actor-runtime.js";

/** The URN automatic changes (SLA breaches, resolution by booking's answer) are recorded under. */
export const MANUAL_REVIEW_SYSTEM = "urn:system:manual-review";

export interface ReviewItemTurn {
  item: ReviewItem;
  /** Absent when the command repeated what was already so. */
  change?: RecordedChange;
}

interface Traced {
  correlationUrn: string;
}

export interface ClaimCommand extends Traced {
  by: string;
}

export interface AssignCommand extends Traced {
  by: string;
  assignee: string;
}

export interface EscalateCommand extends Traced {
  by: string;
  reason: string;
}

export interface ActionCommand extends Traced, Acting {}

export interface ResolveCommand extends ActionCommand {
  resolution: string;
  reason: string;
}

export interface RebookCommand extends ActionCommand {
  kind: Rebooking["kind"];
  hotelUrn: string;
  providerOfferId?: string;
  reason: string;
}

export interface SplitRecord extends ActionCommand {
  groupId: string;
  parts: string[];
  reason: string;
}

export interface RelaxRecord extends ActionCommand {
  fields: Record<string, unknown>;
  reason: string;
}

const ITEM = "item";
const SLA = "sla";

/**
 * One manual-review item per actor (`urn:review-item:<actor id>`). Its turns serialize the queue's
 * races: of ten operators claiming at once, one wins and nine get 409 with `assignedTo`. Every
 * change emits its event through the outbox, including the requests other areas act on
 * (`booking.group-requested` for a rebook or override, `allocation.rerun-requested` after a policy
 * relaxation), so a request is sent exactly when the item records it. The SLA is a reminder: when
 * it runs out the item raises its own priority and pages (`review-item.sla-breached`).
 */
export class ReviewItemActor {
  constructor(private readonly context: ActorContext) {}

  /**
   * Puts the item in the queue. Opening an item that exists returns it unchanged: the event that
   * asked for it may arrive again, and an item the case raised may be adopted by several paths.
   */
  async open(input: NewReviewItem & Traced): Promise<{ item: ReviewItem; created: boolean }> {
    const existing = await this.load();
    if (existing) return { item: existing, created: false };
    const { correlationUrn, ...fields } = input;
    const item = openReviewItem(fields, this.now());
    this.save(item);
    await this.armSla(item);
    this.emit(item, REVIEW_ITEM_EVENT.created, correlationUrn, { item });
    return { item, created: true };
  }

  async get(): Promise<ReviewItem | undefined> {
    return this.load();
  }

  async claim(command: ClaimCommand): Promise<ReviewItemTurn> {
    const before = await this.required();
    return this.assigned(before, claim(before, command.by, this.now()), "review-item.claimed", command);
  }

  async assign(command: AssignCommand): Promise<ReviewItemTurn> {
    const before = await this.required();
    return this.assigned(
      before,
      assign(before, command.assignee, this.now()),
      "review-item.assigned",
      command,
    );
  }

  /** Before an action carried out elsewhere (a split, a relaxation): the caller holds the item. */
  async take(command: ActionCommand): Promise<ReviewItemTurn> {
    const before = await this.required();
    return this.assigned(before, takeForAction(before, command, this.now()), "review-item.claimed", command);
  }

  async escalate(command: EscalateCommand): Promise<ReviewItemTurn> {
    const before = await this.required();
    const item = escalate(before, this.now());
    this.save(item);
    await this.armSla(item);
    this.emit(item, REVIEW_ITEM_EVENT.escalated, command.correlationUrn, {
      priority: item.priority,
      previousPriority: before.priority,
      previousAssignee: before.assignedTo,
      reason: command.reason,
      by: command.by,
    });
    return {
      item,
      change: {
        action: "review-item.escalated",
        by: command.by,
        reason: command.reason,
        before: { state: before.state, priority: before.priority, assignedTo: before.assignedTo },
        after: { state: item.state, priority: item.priority, assignedTo: item.assignedTo },
      },
    };
  }

  async resolve(command: ResolveCommand): Promise<ReviewItemTurn> {
    const before = await this.required();
    const taken = takeForAction(before, command, this.now());
    const item = resolve(taken, command, this.now());
    await this.closeOut(item, command.correlationUrn, "operator");
    return {
      item,
      change: {
        action: "review-item.resolved",
        by: command.by,
        reason: command.reason,
        before: { state: before.state, assignedTo: before.assignedTo },
        after: { state: item.state, assignedTo: item.assignedTo, resolution: command.resolution },
      },
    };
  }

  /**
   * Rebook or override: asks booking to book every group still without a room on the hotel (and
   * offer). The item moves on when booking answers (`recordBookingAnswer`).
   */
  async requestRebooking(command: RebookCommand): Promise<ReviewItemTurn> {
    const before = await this.required();
    const taken = takeForAction(before, command, this.now());
    const item = requestRebooking(
      taken,
      {
        kind: command.kind,
        hotelUrn: command.hotelUrn,
        providerOfferId: command.providerOfferId ?? null,
        requestedBy: command.by,
        reason: command.reason,
      },
      this.now(),
    );
    this.save(item);
    for (const { groupId } of item.rebooking!.groups) {
      this.context.emit({
        type: "booking.group-requested",
        tenant: item.tenant,
        correlationUrn: command.correlationUrn,
        caseUrn: item.caseUrn,
        data: {
          caseUrn: item.caseUrn,
          groupId,
          hotelUrn: command.hotelUrn,
          ...(command.providerOfferId ? { providerOfferId: command.providerOfferId } : {}),
          reviewItemUrn: item.urn,
          requestedBy: command.by,
        },
      });
    }
    this.updated(item, command.correlationUrn, `${command.kind}-requested`);
    return {
      item,
      change: {
        action: `review-item.${command.kind}-requested`,
        by: command.by,
        reason: command.reason,
        before: { state: before.state, assignedTo: before.assignedTo, bookedGroups: before.bookedGroups },
        after: {
          state: item.state,
          assignedTo: item.assignedTo,
          hotelUrn: command.hotelUrn,
          providerOfferId: command.providerOfferId ?? null,
          groups: item.rebooking!.groups.map((g) => g.groupId),
        },
      },
    };
  }

  /**
   * Booking's answer to a group of the pending rebook or override. When every affected group has a
   * room the item resolves as REBOOKED, by whoever asked for the rebooking.
   */
  async recordBookingAnswer(answer: BookingAnswer & Traced): Promise<ReviewItemTurn> {
    const before = await this.required();
    const answered = recordBookingAnswer(before, answer, this.now());
    if (answered === before) return { item: before };
    const rebooking = before.rebooking!;
    if (!everyGroupBooked(answered)) {
      this.save(answered);
      this.updated(answered, answer.correlationUrn, answer.booked ? "group-booked" : "group-failed");
      return { item: answered };
    }
    const item = resolve(
      answered,
      { resolution: REBOOKED, reason: rebooking.reason, by: rebooking.requestedBy },
      this.now(),
    );
    await this.closeOut(item, answer.correlationUrn, "booking");
    return {
      item,
      change: {
        action: "review-item.resolved",
        by: rebooking.requestedBy,
        reason: rebooking.reason,
        before: { state: before.state },
        after: { state: item.state, resolution: REBOOKED, hotelUrn: rebooking.hotelUrn },
      },
    };
  }

  /** The case split one of the item's groups (the caller did it through the case). */
  async recordSplit(command: SplitRecord): Promise<ReviewItemTurn> {
    const before = await this.required();
    const taken = takeForAction(before, command, this.now());
    const item = replaceSplitGroup(taken, command.groupId, command.parts, this.now());
    this.save(item);
    this.updated(item, command.correlationUrn, "split");
    return {
      item,
      change: {
        action: "review-item.split",
        by: command.by,
        reason: command.reason,
        before: { affectedGroups: before.affectedGroups },
        after: { affectedGroups: item.affectedGroups, groupId: command.groupId, parts: command.parts },
      },
    };
  }

  /**
   * The case's policy was relaxed for this case (the caller stored the override): the item records
   * it and asks allocation to run the wave again under it.
   */
  async recordRelaxation(command: RelaxRecord): Promise<ReviewItemTurn> {
    const before = await this.required();
    const taken = takeForAction(before, command, this.now());
    const item = recordRelaxation(taken, command, this.now());
    this.save(item);
    this.context.emit({
      type: "allocation.rerun-requested",
      tenant: item.tenant,
      correlationUrn: command.correlationUrn,
      caseUrn: item.caseUrn,
      data: {
        caseUrn: item.caseUrn,
        reason: command.reason,
        reviewItemUrn: item.urn,
        requestedBy: command.by,
        fields: command.fields,
      },
    });
    this.updated(item, command.correlationUrn, "relaxed");
    return {
      item,
      change: {
        action: "review-item.relaxed",
        by: command.by,
        reason: command.reason,
        before: { assignedTo: before.assignedTo },
        after: { assignedTo: item.assignedTo, fields: command.fields },
      },
    };
  }

  /** The exception agent's latest proposals (after a new wave of the case, say). */
  async recommend(command: { recommendations: Recommendation[] } & Traced): Promise<ReviewItemTurn> {
    const before = await this.required();
    const item = withRecommendations(before, command.recommendations, this.now());
    if (item === before) return { item };
    this.save(item);
    this.updated(item, command.correlationUrn, "recommendations");
    return { item };
  }

  async receiveReminder(name: string): Promise<void> {
    if (name !== SLA) return;
    const before = await this.load();
    if (!before?.slaDueAt || Date.parse(before.slaDueAt) > this.context.clock.now()) return;
    const item = breachSla(before, this.now());
    if (!item) return;
    this.save(item);
    await this.armSla(item);
    this.emit(item, REVIEW_ITEM_EVENT.slaBreached, item.urn, {
      category: item.category,
      airport: item.airport,
      priority: item.priority,
      previousPriority: before.priority,
      assignedTo: item.assignedTo,
      breachedAt: this.now().toISOString(),
      slaDueAt: item.slaDueAt,
    });
  }

  private assigned(
    before: ReviewItem,
    item: ReviewItem,
    action: string,
    command: Traced & { by: string },
  ): ReviewItemTurn {
    if (item === before) return { item };
    this.save(item);
    this.emit(item, REVIEW_ITEM_EVENT.assigned, command.correlationUrn, {
      assignedTo: item.assignedTo,
      previousAssignee: before.assignedTo,
      by: command.by,
    });
    return {
      item,
      change: {
        action,
        by: command.by,
        before: { state: before.state, assignedTo: before.assignedTo },
        after: { state: item.state, assignedTo: item.assignedTo },
      },
    };
  }

  /** `via`: an operator's resolve (audited by the request) or booking's last answer (audited from the event). */
  private async closeOut(
    item: ReviewItem,
    correlationUrn: string,
    via: "operator" | "booking",
  ): Promise<void> {
    this.save(item);
    await this.context.reminders.cancel(SLA);
    this.emit(item, REVIEW_ITEM_EVENT.resolved, correlationUrn, {
      via,
      category: item.category,
      resolution: item.resolution!.resolution,
      reason: item.resolution!.reason,
      by: item.resolution!.by,
    });
  }

  private async armSla(item: ReviewItem): Promise<void> {
    if (!item.slaDueAt) return;
    const dueInMs = Math.max(0, Date.parse(item.slaDueAt) - this.context.clock.now());
    await this.context.reminders.set(SLA, { dueInMs });
  }

  private updated(item: ReviewItem, correlationUrn: string, change: string): void {
    this.emit(item, REVIEW_ITEM_EVENT.updated, correlationUrn, { change });
  }

  private emit<T extends ReviewItemEventType>(
    item: ReviewItem,
    type: T,
    correlationUrn: string,
    details: ReviewItemEventDetails<T>,
  ): void {
    const data = {
      urn: item.urn,
      caseUrn: item.caseUrn,
      state: item.state,
      version: item.version,
      ...details,
    };
    this.context.emit({
      type,
      tenant: item.tenant,
      correlationUrn,
      caseUrn: item.caseUrn,
      data: data as EventDataByType[T],
    });
  }

  private save(item: ReviewItem): void {
    this.context.state.set(ITEM, item);
  }

  private async load(): Promise<ReviewItem | undefined> {
    return this.context.state.get<ReviewItem>(ITEM);
  }

  private async required(): Promise<ReviewItem> {
    const item = await this.load();
    if (!item) throw reviewItemNotFound(`urn:review-item:${this.context.actorId}`);
    return item;
  }

  private now(): Date {
    return new Date(this.context.clock.now());
  }
}

export function reviewItemNotFound(urn: string): DomainError {
  return new DomainError("not-found", "review-item-not-found", `No review item ${urn}`, { urn });
}
