import { UnusableReviewEvent } from "../../src/app/manual-review/review-intake.js";
import { DomainError } from "../../src/domain/domain-error.js";
import { REVIEW_ITEM_EVENT } from "../../src/domain/events/review-item.js";
import { type EventSubscription, eventSubscription } from "../../src/runtime/subscription-policy.js";
import type { ModuleContext } from "../module.js";
import { reviewUseCases } from "./review-use-cases.js";

/**
 * Per tenant topic: (1) items enter the queue from `review-item.requested` (booking, allocation)
 * and `review-item.raised` (the case); (2) each item's own events keep the queue copy, the audit
 * trail and the case's status in step; (3) booking's answers move rebooked items on; (4) a new
 * wave of a case refreshes the agent's recommendations on its open items; (5) the exception agent
 * triages every new item (spec 4.2), its recommendations becoming its first proposals. All are idempotent.
 * An event that can never be handled is refused (dead-lettered); anything else is retried.
 */
export function manualReviewSubscriptions(
  context: () => ModuleContext,
  tenants: readonly string[],
): EventSubscription[] {
  const common = {
    onFailure: "retry-with-backoff",
    refuses: isHopeless,
    log: () => context().logger,
  } as const;
  const review = () => reviewUseCases(context().container);

  return tenants.flatMap((tenant) => [
    eventSubscription({
      ...common,
      name: `manual-review.intake.${tenant}`,
      tenant,
      types: ["review-item.requested", "review-item.raised"],
      handle: async (event) => {
        if (event.type === "review-item.requested") await review().intake.openRequested(event);
        else await review().intake.adoptRaised(event);
      },
    }),
    eventSubscription({
      ...common,
      name: `manual-review.follow-up.${tenant}`,
      tenant,
      types: Object.values(REVIEW_ITEM_EVENT),
      handle: (event) => {
        const { followUp } = review();
        if (event.type === REVIEW_ITEM_EVENT.slaBreached) return followUp.slaBreached(event);
        if (event.type === REVIEW_ITEM_EVENT.resolved) return followUp.resolved(event);
        return followUp.project(event);
      },
    }),
    eventSubscription({
      ...common,
      name: `manual-review.booking-answers.${tenant}`,
      tenant,
      types: ["booking.group-booked", "booking.group-failed"],
      handle: (event) => review().followUp.bookingAnswered(event, event.type === "booking.group-booked"),
    }),
    eventSubscription({
      ...common,
      name: `manual-review.exception-agent.${tenant}`,
      tenant,
      types: [REVIEW_ITEM_EVENT.created],
      handle: async (event) => {
        await review().triage.itemCreated(event.data.item, event.correlationUrn);
      },
    }),
    eventSubscription({
      ...common,
      name: `manual-review.waves.${tenant}`,
      tenant,
      types: ["allocation.wave-completed"],
      handle: (event) =>
        review().intake.refreshRecommendations(
          event.tenant,
          event.caseUrn ?? event.data.caseUrn,
          event.correlationUrn,
        ),
    }),
  ]);
}

function isHopeless(error: unknown): boolean {
  return (
    error instanceof UnusableReviewEvent ||
    (error instanceof DomainError && ["not-found", "invalid", "unprocessable"].includes(error.kind))
  );
}
