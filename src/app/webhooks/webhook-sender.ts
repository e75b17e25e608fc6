import { inject, injectable } from "tsyringe";
import type { DomainEvent } from "../../domain/domain-event.js";
import { DomainError } from "../../domain/domain-error.js";
import { hmacSignature } from "../../domain/hmac-signature.js";
import { isDelivered, WEBHOOK_TIMEOUT_MS } from "../../domain/webhooks/retry-schedule.js";
import {
  assertAddressesAllowed,
  parseWebhookUrl,
  webhookHost,
} from "../../domain/webhooks/webhook-address.js";
import { WEBHOOK_HEADERS, WEBHOOK_USER_AGENT, webhookBody } from "../../domain/webhooks/webhook-payload.js";
import { signingSecrets, type WebhookSubscription } from "../../domain/webhooks/webhook-subscription.js";
import type { Clock } from "../../runtime/clock.js";
import type { DocumentCollection, DocumentStore } from "../../runtime/document-store.js";
import { TOKENS } from "../../runtime/tokens.js";
import { type AttemptDoc, WEBHOOK_COLLECTIONS } from "./webhook-documents.js";
import type { WebhookSettings, WebhookTransport } from "./webhook-transport.js";

/**
 * One signed POST of one event to one subscription's URL (spec 6.1), kept as an attempt. The body
 * is serialised once and signed as sent; mid-rotation the signature header carries one signature
 * per live secret, the new one first (`sha256=<new>,sha256=<old>`), so a receiver still holding
 * the old secret verifies as before. The URL's host is resolved and held to the SSRF rules again
 * at every send: what it resolves to may have changed since it was registered.
 */
@injectable()
export class WebhookSender {
  private readonly attempts: DocumentCollection<AttemptDoc>;

  constructor(
    @inject(TOKENS.webhookTransport) private readonly transport: WebhookTransport,
    @inject(TOKENS.webhookSettings) private readonly settings: WebhookSettings,
    @inject(TOKENS.clock) private readonly clock: Clock,
    @inject(TOKENS.documents) documents: DocumentStore,
  ) {
    this.attempts = documents.collection<AttemptDoc>(WEBHOOK_COLLECTIONS.attempts);
  }

  async ensureIndexes(): Promise<void> {
    await this.attempts.ensureIndex({ keys: { clientId: 1, at: -1 } });
  }

  /** The URL, parsed and held to the SSRF rules, its host resolved (422 problems otherwise). */
  async allowedUrl(raw: string): Promise<URL> {
    const rules = { allowLoopback: this.settings.allowLoopbackHttp };
    const url = parseWebhookUrl(raw, rules);
    const host = webhookHost(url);
    let addresses: string[];
    try {
      addresses = await this.transport.resolve(host);
    } catch {
      addresses = [];
    }
    assertAddressesAllowed(host, addresses, rules);
    return url;
  }

  async send(
    subscription: WebhookSubscription,
    event: DomainEvent,
    data: object,
    attempt: number,
  ): Promise<AttemptDoc> {
    const startedAt = this.clock.now();
    const body = JSON.stringify(webhookBody(event, data));
    const timestamp = String(Math.floor(startedAt / 1000));
    const headers = {
      "Content-Type": "application/json",
      [WEBHOOK_HEADERS.userAgent]: WEBHOOK_USER_AGENT,
      [WEBHOOK_HEADERS.signature]: signingSecrets(subscription, startedAt)
        .map((secret) => hmacSignature(secret, timestamp, body))
        .join(","),
      [WEBHOOK_HEADERS.timestamp]: timestamp,
      [WEBHOOK_HEADERS.eventType]: event.type,
      [WEBHOOK_HEADERS.eventUrn]: event.id,
      [WEBHOOK_HEADERS.tenant]: event.tenant,
      [WEBHOOK_HEADERS.correlation]: event.correlationUrn,
    };
    let status: number | null = null;
    let error: string | null = null;
    try {
      const url = await this.allowedUrl(subscription.url);
      status = (await this.transport.post(url.href, headers, body, WEBHOOK_TIMEOUT_MS)).status;
      if (!isDelivered(status)) error = `HTTP ${status}`;
    } catch (cause) {
      error =
        cause instanceof DomainError ? cause.message : cause instanceof Error ? cause.message : String(cause);
    }
    const record: AttemptDoc = {
      _id: `${subscription.clientId}~${event.id}~${startedAt}~${attempt}`,
      clientId: subscription.clientId,
      tenant: subscription.tenant,
      eventUrn: event.id,
      eventType: event.type,
      attempt,
      at: startedAt,
      delivered: isDelivered(status ?? undefined),
      status,
      error,
      latencyMs: this.clock.now() - startedAt,
    };
    await this.attempts.put(record);
    return record;
  }
}
