import { REVIEW_ITEM_EVENT } from "../../actors/ReviewItemActor.js";
import { UnusableReviewEvent } from "../../src/app/manual-review/review-intake.js";
import { DomainError } from "../../src/domain/domain-error.js";
import { type DomainEvent, topicFor } from "../../src/domain/domain-event.js";
import type { DeliveryResult, Subscription } from "../../src/runtime/event-bus.js";
import type { ModuleContext } from "../module.js";
import { reviewUseCases } from "./review-use-cases.js";

/**
 * Per tenant topic: (1) items enter the queue from `review-item.requested` (booking, allocation)
 * and `review-item.raised` (the case); (2) each item's own events keep the queue copy, the audit
 * trail and the case's status in step; (3) booking's answers move rebooked items on; (4) a new
 * wave of a case refreshes the agent's recommendations on its open items. All are idempotent.
 */
export function manualReviewSubscriptions(
  context: () => ModuleContext,
  tenants: readonly string[],
): Subscription[] {
  const handle =
    (what: string, work: (event: DomainEvent) => Promise<unknown>) =>
    async (event: DomainEvent): Promise<DeliveryResult> => {
      try {
        await work(event);
        return "SUCCESS";
      } catch (error) {
        // An event that can never be handled goes to the dead letters; anything else is retried.
        const hopeless =
          error instanceof UnusableReviewEvent ||
          (error instanceof DomainError && ["not-found", "invalid", "unprocessable"].includes(error.kind));
        context().logger.warn({ err: error, eventId: event.id, type: event.type }, `${what} failed`);
        return hopeless ? "DROP" : "RETRY";
      }
    };
  const review = () => reviewUseCases(context().container);

  return tenants.flatMap((tenant): Subscription[] => {
    const topic = topicFor({ tenant });
    return [
      {
        name: `manual-review.intake.${tenant}`,
        topic,
        types: ["review-item.requested", "review-item.raised"],
        handler: handle("opening a review item", (event) =>
          event.type === "review-item.requested"
            ? review().intake.openRequested(event)
            : review().intake.adoptRaised(event),
        ),
      },
      {
        name: `manual-review.follow-up.${tenant}`,
        topic,
        types: Object.values(REVIEW_ITEM_EVENT),
        handler: handle("following a review item", (event) => {
          const { followUp } = review();
          if (event.type === REVIEW_ITEM_EVENT.slaBreached) return followUp.slaBreached(event);
          if (event.type === REVIEW_ITEM_EVENT.resolved) return followUp.resolved(event);
          return followUp.project(event);
        }),
      },
      {
        name: `manual-review.booking-answers.${tenant}`,
        topic,
        types: ["booking.group-booked", "booking.group-failed"],
        handler: handle("recording booking's answer", (event) =>
          review().followUp.bookingAnswered(event, event.type === "booking.group-booked"),
        ),
      },
      {
        name: `manual-review.waves.${tenant}`,
        topic,
        types: ["allocation.wave-completed"],
        handler: handle("refreshing recommendations", async (event) => {
          const caseUrn = event.caseUrn ?? (event.data as { caseUrn?: unknown } | null)?.caseUrn;
          if (typeof caseUrn !== "string") return;
          await review().intake.refreshRecommendations(event.tenant, caseUrn, event.correlationUrn);
        }),
      },
    ];
  });
}
