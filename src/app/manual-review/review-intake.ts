import { ReviewItemActor } from "../../../actors/ReviewItemActor.js";
import { isReviewCategory } from "../../domain/case.js";
import type { EventOf } from "../../domain/events/catalogue.js";
import type { ReviewItemRequestedData } from "../../domain/events/review-item.js";
import { type ReviewItem, reviewItemUrnFor } from "../../domain/review-item.js";
import type { ActorRuntime } from "../../runtime/actor-runtime.js";
import { CaseChanges } from "../cases/case-changes.js";
import { AGENT_CATEGORIES } from "../../domain/agent/recommendations.js";
import { ExceptionAgent } from "./exception-agent.js";
import { reviewItemRefOf, reviewItemUrnForRequest } from "./review-item-addresses.js";
import { ReviewItemChanges } from "./review-item-changes.js";
import { ReviewQueueIndex } from "./review-queue-index.js";
import { inject, injectable } from "tsyringe";
import { TOKENS } from "../../runtime/tokens.js";

/** Why an event cannot become an item; the subscription drops it. */
export class UnusableReviewEvent extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UnusableReviewEvent";
  }
}

/**
 * Items enter the queue here: those booking and allocation request (with the exception agent's
 * recommendations, spec 4.2: the agent runs when an item is created) and those the case raised
 * (group and policy problems), which get their actor, and so their SLA, as soon as they exist.
 */
@injectable()
export class ReviewIntake {
  constructor(
    @inject(TOKENS.actors) private readonly actors: ActorRuntime,
    @inject(ReviewQueueIndex) private readonly index: ReviewQueueIndex,
    @inject(CaseChanges) private readonly cases: CaseChanges,
    @inject(ExceptionAgent) private readonly agent: ExceptionAgent,
    @inject(ReviewItemChanges) private readonly changes: ReviewItemChanges,
  ) {}

  async openRequested(event: EventOf<"review-item.requested">): Promise<ReviewItem> {
    const request = requestOf(event.data);
    const snapshot = await this.cases.snapshot(request.caseUrn);
    if (snapshot.case.tenant !== event.tenant) {
      throw new UnusableReviewEvent(`Case ${request.caseUrn} is not a case of ${event.tenant}`);
    }
    const urn = request.reviewItemUrn ?? reviewItemUrnForRequest(event.id);
    const recommendations = await this.agent.recommendationsFor({
      tenant: event.tenant,
      caseUrn: snapshot.case.urn,
      category: request.category,
      affectedGroups: request.affectedGroups,
      attemptedHotels: request.attemptedHotels,
    });
    const { item } = await this.actors.invoke(ReviewItemActor, reviewItemRefOf(urn).id, "open", {
      urn: reviewItemRefOf(urn).urn,
      caseUrn: snapshot.case.urn,
      tenant: event.tenant,
      airport: snapshot.case.flight.origin,
      category: request.category,
      attemptedHotels: request.attemptedHotels,
      affectedGroups: request.affectedGroups,
      recommendations,
      reason: request.reason,
      raisedBy: "booking",
      demandUrn: request.demandUrn ?? null,
      raisedAt: event.occurredAt,
      correlationUrn: event.correlationUrn,
    });
    await this.index.record(item);
    return item;
  }

  async adoptRaised(event: EventOf<"review-item.raised">): Promise<ReviewItem> {
    const raised = event.data;
    if (typeof raised?.urn !== "string" || !isReviewCategory(raised.category)) {
      throw new UnusableReviewEvent("review-item.raised without an item");
    }
    return this.changes.adoptRaised(
      reviewItemRefOf(raised.urn),
      {
        caseUrn: raised.caseUrn,
        tenant: event.tenant,
        airport: raised.airport,
        category: raised.category,
        priority: raised.priority,
        affectedGroups: raised.affectedGroups,
        reason: raised.reason,
        raisedAt: raised.raisedAt,
      },
      event.correlationUrn,
    );
  }

  /**
   * A passenger reported a problem (spec 4.4 `POST /v1/me/problem`): a PASSENGER_REPORTED item of
   * the passenger's group, the passenger's text as its reason. `reportId` names the item, so the
   * same report opened again (a retried request) is the same item.
   */
  async openPassengerReport(report: {
    tenant: string;
    caseUrn: string;
    airport: string;
    groupId: string;
    text: string;
    reportId: string;
    /** When the passenger sent it: the SLA runs from here. */
    raisedAt: string;
    correlationUrn: string;
  }): Promise<ReviewItem> {
    const urn = reviewItemRefOf(reviewItemUrnFor("passenger-report", report.caseUrn, report.reportId));
    const { item } = await this.actors.invoke(ReviewItemActor, urn.id, "open", {
      urn: urn.urn,
      caseUrn: report.caseUrn,
      tenant: report.tenant,
      airport: report.airport,
      category: "PASSENGER_REPORTED",
      affectedGroups: [report.groupId],
      reason: report.text,
      raisedBy: "passenger",
      raisedAt: report.raisedAt,
      correlationUrn: report.correlationUrn,
    });
    await this.index.record(item);
    return item;
  }

  /**
   * The wallet issuer refused a group's card because the tenant's funding pool is exhausted (spec
   * 7): a WALLET_FUNDING_EXHAUSTED item of the group. The operator resolves it with
   * WALLET_LEG_DROPPED (the group goes without a card) or escalates it (the pool is to be refunded).
   * `cardUrn` names the item, so the same refusal reported again is the same item.
   */
  async openWalletFundingExhausted(refusal: {
    tenant: string;
    caseUrn: string;
    airport: string;
    groupId: string;
    cardUrn: string;
    reason: string;
    raisedAt: string;
    correlationUrn: string;
  }): Promise<ReviewItem> {
    const urn = reviewItemRefOf(reviewItemUrnFor("wallet-funding", refusal.cardUrn));
    const { item } = await this.actors.invoke(ReviewItemActor, urn.id, "open", {
      urn: urn.urn,
      caseUrn: refusal.caseUrn,
      tenant: refusal.tenant,
      airport: refusal.airport,
      category: "WALLET_FUNDING_EXHAUSTED",
      affectedGroups: [refusal.groupId],
      reason: refusal.reason,
      raisedBy: "wallet",
      raisedAt: refusal.raisedAt,
      correlationUrn: refusal.correlationUrn,
    });
    await this.index.record(item);
    return item;
  }

  /** A new wave of the case: the agent's proposals for its items still open are worked out again. */
  async refreshRecommendations(tenant: string, caseUrn: string, correlationUrn: string): Promise<void> {
    const entries = await this.index.unresolvedOfCase(tenant, caseUrn, AGENT_CATEGORIES);
    for (const entry of entries) {
      const ref = reviewItemRefOf(entry.urn);
      const item = await this.actors.invoke(ReviewItemActor, ref.id, "get");
      if (!item || item.state === "RESOLVED") continue;
      const recommendations = await this.agent.recommendationsFor(item);
      const turn = await this.actors.invoke(ReviewItemActor, ref.id, "recommend", {
        recommendations,
        correlationUrn,
      });
      await this.index.record(turn.item);
    }
  }
}

const REQUESTABLE: readonly string[] = [
  "BOOKING_FAILED",
  "PARTIAL_FULFILLMENT",
  "PAYMENT_FAILED",
  "ALLOCATION_FAILED",
  "MANUAL_RECONCILIATION",
];

function requestOf(data: unknown): ReviewItemRequestedData {
  const request = data as Partial<ReviewItemRequestedData> | null;
  const strings = (value: unknown) => Array.isArray(value) && value.every((v) => typeof v === "string");
  const hotels = (value: unknown) =>
    Array.isArray(value) &&
    value.every(
      (h) =>
        typeof h?.hotelUrn === "string" &&
        typeof h?.reason === "string" &&
        (h.providerError === undefined || typeof h.providerError === "string"),
    );
  if (
    typeof request?.caseUrn !== "string" ||
    !REQUESTABLE.includes(request.category as string) ||
    !strings(request.affectedGroups) ||
    !hotels(request.attemptedHotels ?? []) ||
    typeof request.reason !== "string" ||
    (request.reviewItemUrn !== undefined && typeof request.reviewItemUrn !== "string")
  ) {
    throw new UnusableReviewEvent(
      "review-item.requested does not carry the fields of a review item (spec 2.5)",
    );
  }
  return { ...request, attemptedHotels: request.attemptedHotels ?? [] } as ReviewItemRequestedData;
}
