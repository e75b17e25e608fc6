import { MANUAL_REVIEW_SYSTEM, ReviewItemActor } from "../../../actors/ReviewItemActor.js";
import type { EventOf } from "../../domain/events/catalogue.js";
import type { ReviewItemEventType } from "../../domain/events/review-item.js";
import type { ActorRuntime } from "../../runtime/actor-runtime.js";
import type { AuditLog, NewAuditEntry } from "../audit-log.js";
import { CaseReturn } from "./case-return.js";
import { reviewItemRefOf } from "./review-item-addresses.js";
import { ReviewQueueIndex } from "./review-queue-index.js";
import { inject, injectable } from "tsyringe";
import { TOKENS } from "../../runtime/tokens.js";

/**
 * What follows a review item's own events and booking's answers, delivered at least once: the
 * queue copy, the audit entries of changes nobody requested over HTTP (an SLA breach, a resolution
 * by booking's last answer), and the case's return to the normal flow. Every step is idempotent.
 */
@injectable()
export class ReviewItemFollowUp {
  constructor(
    @inject(TOKENS.actors) private readonly actors: ActorRuntime,
    @inject(ReviewQueueIndex) private readonly index: ReviewQueueIndex,
    @inject(TOKENS.audit) private readonly audit: AuditLog,
    @inject(CaseReturn) private readonly caseReturn: CaseReturn,
  ) {}

  /** Copies the item as it is now (not as the event says) into the queue. */
  async project(event: EventOf<ReviewItemEventType>): Promise<void> {
    const item = await this.current(event);
    if (item) await this.index.record(item);
  }

  /** Spec 3.5: an SLA breach appends an audit entry (services/alerting pages on-call). */
  async slaBreached(event: EventOf<"review-item.sla-breached">): Promise<void> {
    await this.project(event);
    const { data } = event;
    await this.appendOnce(
      { "after.eventId": event.id },
      {
        tenant: event.tenant,
        actorUrn: MANUAL_REVIEW_SYSTEM,
        action: "review-item.sla-breached",
        entityUrn: data.urn,
        caseUrn: event.caseUrn ?? null,
        correlationUrn: event.correlationUrn,
        reason: `SLA breached at ${data.previousPriority}; priority raised to ${data.priority}`,
        before: { priority: data.previousPriority },
        after: { priority: data.priority, breachedAt: data.breachedAt, eventId: event.id },
      },
    );
  }

  /** A resolved item returns its case to the flow; a resolution by booking is audited here. */
  async resolved(event: EventOf<"review-item.resolved">): Promise<void> {
    await this.project(event);
    const { data } = event;
    const item = await this.current(event);
    if (!item) return;
    if (data.via === "booking") {
      // An item resolves once: one such entry per item.
      await this.appendOnce(
        {},
        {
          tenant: event.tenant,
          actorUrn: data.by ?? MANUAL_REVIEW_SYSTEM,
          action: "review-item.resolved",
          entityUrn: item.urn,
          caseUrn: item.caseUrn,
          correlationUrn: event.correlationUrn,
          ...(data.reason ? { reason: data.reason } : {}),
          before: { state: "ASSIGNED" },
          after: { state: "RESOLVED", resolution: data.resolution, via: "booking", eventId: event.id },
        },
      );
    }
    await this.caseReturn.afterResolved(item, event.correlationUrn);
  }

  /** Booking booked, or failed to book, a group the item asked for. */
  async bookingAnswered(
    event: EventOf<"booking.group-booked" | "booking.group-failed">,
    booked: boolean,
  ): Promise<void> {
    const { data } = event;
    if (typeof data?.reviewItemUrn !== "string" || typeof data.groupId !== "string") return;
    const ref = reviewItemRefOf(data.reviewItemUrn);
    const turn = await this.actors.invoke(ReviewItemActor, ref.id, "recordBookingAnswer", {
      groupId: data.groupId,
      booked,
      ...(data.reservationUrn ? { reservationUrn: data.reservationUrn } : {}),
      ...(data.vendorErrorCode ? { vendorErrorCode: data.vendorErrorCode } : {}),
      correlationUrn: event.correlationUrn,
    });
    await this.index.record(turn.item);
  }

  private async current(event: EventOf<ReviewItemEventType>) {
    const urn = event.data?.urn;
    if (typeof urn !== "string") return undefined;
    return this.actors.invoke(ReviewItemActor, reviewItemRefOf(urn).id, "get");
  }

  /** Appends the entry unless an entry of the same entity and action matching `key` exists. */
  private async appendOnce(key: Record<string, unknown>, entry: NewAuditEntry): Promise<void> {
    const filter = { tenant: entry.tenant, entityUrn: entry.entityUrn, action: entry.action, ...key };
    if (!(await this.audit.has(filter))) await this.audit.append(entry);
  }
}
