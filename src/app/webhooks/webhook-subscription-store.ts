import { inject, injectable } from "tsyringe";
import type {
  WebhookSubscription,
  WebhookSubscriptionStatus,
} from "../../domain/webhooks/webhook-subscription.js";
import type { Clock } from "../../runtime/clock.js";
import type { DocumentCollection, DocumentStore } from "../../runtime/document-store.js";
import { TOKENS } from "../../runtime/tokens.js";
import { type SubscriptionDoc, WEBHOOK_COLLECTIONS } from "./webhook-documents.js";

/** The registrations' webhook subscriptions, one document per registration (client id). */
@injectable()
export class WebhookSubscriptionStore {
  private readonly subscriptions: DocumentCollection<SubscriptionDoc>;

  constructor(
    @inject(TOKENS.documents) documents: DocumentStore,
    @inject(TOKENS.clock) private readonly clock: Clock,
  ) {
    this.subscriptions = documents.collection<SubscriptionDoc>(WEBHOOK_COLLECTIONS.subscriptions);
  }

  async ensureIndexes(): Promise<void> {
    await this.subscriptions.ensureIndex({ keys: { tenant: 1 } });
  }

  /** The registration's subscription; another tenant's is as good as none (spec 5.4). */
  async get(clientId: string, tenant: string): Promise<WebhookSubscription | undefined> {
    const doc = await this.subscriptions.get(clientId);
    return doc && doc.tenant === tenant ? withoutId(doc) : undefined;
  }

  async ofTenant(tenant: string): Promise<WebhookSubscription[]> {
    const docs = await this.subscriptions.findAll({ tenant }, { sort: { clientId: 1 } });
    return docs.map(withoutId);
  }

  async put(subscription: WebhookSubscription): Promise<void> {
    await this.subscriptions.put({ _id: subscription.clientId, ...subscription });
  }

  /**
   * Moves the subscription from one status to the other; false when it was not in `from` (another
   * delivery paused it first, or a test re-enabled it).
   */
  async move(
    clientId: string,
    from: WebhookSubscriptionStatus,
    to: WebhookSubscriptionStatus,
  ): Promise<boolean> {
    const at = new Date(this.clock.now()).toISOString();
    const moved = await this.subscriptions.updateOne(
      { _id: clientId, status: from },
      { $set: { status: to, pausedAt: to === "PAUSED" ? at : null, updatedAt: at } },
    );
    return moved !== undefined;
  }
}

function withoutId({ _id, ...subscription }: SubscriptionDoc): WebhookSubscription {
  return subscription;
}
