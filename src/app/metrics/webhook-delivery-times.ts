import { inject, injectable } from "tsyringe";
import type { DocumentStore } from "../../runtime/document-store.js";
import { TOKENS } from "../../runtime/tokens.js";
import type { Directory } from "../directory.js";
import { type AttemptDoc, type LoggedEventDoc, WEBHOOK_COLLECTIONS } from "../webhooks/webhook-documents.js";

/** One successful webhook delivery: how long it took from the event, and the receiving registration's tier. */
export interface WebhookDeliveryTime {
  tier: 1 | 2 | 3;
  durationMs: number;
}

/**
 * Where the webhook-delivery-p95 KPI reads its samples (spec 6.1, 8.1): the tenant's partner events
 * that occurred in the window, each delivered event's time from occurring to the end of the
 * attempt that delivered it (retries included), with the receiving registration's tier from the
 * partner registry. The webhook area keeps events and attempts for 7 days (the replay window), so
 * older deliveries are not counted.
 */
@injectable()
export class WebhookDeliveryTimes {
  constructor(
    @inject(TOKENS.documents) private readonly documents: DocumentStore,
    @inject(TOKENS.directory) private readonly directory: Directory,
  ) {}

  async deliveries(tenant: string, window: { from: string; to: string }): Promise<WebhookDeliveryTime[]> {
    const events = await this.documents
      .collection<LoggedEventDoc>(WEBHOOK_COLLECTIONS.events)
      .findAll({ tenant, occurredAtMs: { $gte: Date.parse(window.from), $lte: Date.parse(window.to) } });
    if (events.length === 0) return [];
    const occurredAt = new Map(events.map((event) => [event._id, event.occurredAtMs]));
    const delivered = await this.documents
      .collection<AttemptDoc>(WEBHOOK_COLLECTIONS.attempts)
      .findAll({ tenant, delivered: true, eventUrn: { $in: [...occurredAt.keys()] } });
    const tiers = new Map(
      (await this.directory.partnerRegistrations()).map((registration) => [
        registration.clientId,
        registration.tier,
      ]),
    );
    return delivered.flatMap((attempt) => {
      const tier = tiers.get(attempt.clientId);
      const occurred = occurredAt.get(attempt.eventUrn);
      if (tier === undefined || occurred === undefined) return [];
      return [{ tier, durationMs: Math.max(0, attempt.at + attempt.latencyMs - occurred) }];
    });
  }
}
