import { ReviewItemActor, type ReviewItemTurn, reviewItemNotFound } from "../../../actors/ReviewItemActor.js";
import { isReviewCategory, type ReviewPriority } from "../../domain/case.js";
import type { NewReviewItem, ReviewItem } from "../../domain/review-item.js";
import type { OperatorPrincipal } from "../principals.js";
import { assertAirport, assertTenant } from "../authorization.js";
import type { ActorRuntime } from "../../runtime/actor-runtime.js";
import { type AuditLog, changeEntry } from "../audit-log.js";
import { reviewItemRefOf } from "./review-item-addresses.js";
import { ReviewQueueIndex } from "./review-queue-index.js";
import { inject, injectable } from "tsyringe";
import { TOKENS } from "../../runtime/tokens.js";

export interface ReviewItemChangeRequest {
  urn: string;
  caller: OperatorPrincipal;
  correlationUrn: string;
  /** Runs the actor command on the review-item actor with this id. */
  command(itemId: string): Promise<ReviewItemTurn>;
}

/**
 * The path every review-item change takes: find the item (adopting one the case raised that no
 * action has touched yet), check the caller's tenant and airport, run the actor command, copy the
 * item into the queue (so the caller reads its own write) and audit the change with its actor and
 * reason.
 */
@injectable()
export class ReviewItemChanges {
  constructor(
    @inject(TOKENS.actors) private readonly actors: ActorRuntime,
    @inject(ReviewQueueIndex) private readonly index: ReviewQueueIndex,
    @inject(TOKENS.audit) private readonly audit: AuditLog,
  ) {}

  /** The item, once the caller may see it: same tenant (spec 5.4) and, if scoped, same airport. */
  async find(urn: string, caller?: OperatorPrincipal): Promise<ReviewItem> {
    const ref = reviewItemRefOf(urn);
    const item =
      (await this.actors.invoke(ReviewItemActor, ref.id, "get")) ?? (await this.adoptFromQueue(ref));
    if (caller) {
      assertTenant(caller, item.tenant);
      assertAirport(caller, item.airport);
    }
    return item;
  }

  async change(request: ReviewItemChangeRequest): Promise<ReviewItemTurn> {
    const item = await this.find(request.urn, request.caller);
    const turn = await request.command(reviewItemRefOf(item.urn).id);
    await this.record(turn, request);
    return turn;
  }

  /** Copies a turn's item into the queue and audits its change, if it made one. */
  async record(turn: ReviewItemTurn, request: { caller?: OperatorPrincipal; correlationUrn: string }) {
    await this.index.record(turn.item);
    const { change, item } = turn;
    if (!change) return;
    await this.audit.append(
      changeEntry(change, { tenant: item.tenant, entityUrn: item.urn, caseUrn: item.caseUrn }, request),
    );
  }

  /**
   * An item the case raised is in the queue (the case projection put it there) before its actor
   * exists when the `review-item.raised` event has not been handled yet: the actor adopts it now.
   */
  private async adoptFromQueue(ref: { id: string; urn: string }): Promise<ReviewItem> {
    const entry = await this.index.get(ref.urn);
    if (!entry || !isReviewCategory(entry.category)) throw reviewItemNotFound(ref.urn);
    return this.adoptRaised(
      ref,
      {
        caseUrn: entry.caseUrn,
        tenant: entry.tenant,
        airport: entry.airport,
        category: entry.category,
        priority: entry.priority as ReviewPriority,
        attemptedHotels: entry.attemptedHotels,
        affectedGroups: entry.affectedGroups,
        reason: entry.reason,
        raisedAt: entry.createdAt,
      },
      ref.urn,
    );
  }

  /**
   * Opens the actor of an item the case raised, from its `review-item.raised` event or from the
   * queue's copy, whichever comes first, and queues the item.
   */
  async adoptRaised(
    ref: { id: string; urn: string },
    raised: Omit<NewReviewItem, "urn" | "raisedBy">,
    correlationUrn: string,
  ): Promise<ReviewItem> {
    const { item } = await this.actors.invoke(ReviewItemActor, ref.id, "open", {
      urn: ref.urn,
      ...raised,
      raisedBy: "case",
      correlationUrn,
    });
    await this.index.record(item);
    return item;
  }
}
