import { inject, injectable } from "tsyringe";
import { DomainError } from "../../domain/domain-error.js";
import {
  DELIVERY_STATUSES,
  type DeliveryCallback,
  verifyCallbackSignature,
} from "../../domain/notification-callbacks.js";
import {
  type AttemptStatus,
  type NotificationChannelName,
  type NotificationRecord,
  channelsAfter,
  isStopReply,
} from "../../domain/notification.js";
import type { AuditLog } from "../audit-log.js";
import type { Clock } from "../../runtime/clock.js";
import type { CounterStore } from "../../runtime/counter-store.js";
import { TOKENS } from "../../runtime/tokens.js";
import { ContactPreferences } from "./contact-preferences.js";
import type { CallbackSecrets } from "./notification-channel.js";
import { NotificationDelivery } from "./notification-delivery.js";
import { NotificationLog } from "./notification-log.js";

export interface SignedCallback {
  /** The body exactly as it arrived: the signature covers these bytes. */
  rawBody: string;
  signature: string | undefined;
  timestamp: string | undefined;
  eventId: string | undefined;
  /** The callback request's trace, for the audit entry of an opt-out. */
  correlationUrn: string;
}

export type CallbackOutcome =
  | { outcome: "bad-signature" }
  | { outcome: "duplicate"; notificationUrn: string }
  | { outcome: "applied"; notificationUrn: string; status: NotificationRecord["status"] };

/** How long a callback's event id is remembered: longer than any provider retries one. */
const SEEN_EVENT_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Delivery-status callbacks of the SMS and messaging providers (spec 6.3): they update the send log
 * and the contact preferences.
 * - delivered: the attempt (and the notification, if that channel carries it) is DELIVERED;
 * - bounced: the attempt is BOUNCED and the notification falls back to the next channel;
 * - opted-out, or a STOP reply: the address is opted out of that channel for later sends;
 * - replied: the reply is kept on the notification.
 * A bad signature is refused before anything is read; an unknown message is not found; an event id
 * seen before is acknowledged and dropped.
 */
@injectable()
export class DeliveryCallbacks {
  constructor(
    @inject(TOKENS.notificationCallbackSecrets) private readonly secrets: CallbackSecrets,
    @inject(NotificationLog) private readonly log: NotificationLog,
    @inject(ContactPreferences) private readonly preferences: ContactPreferences,
    @inject(NotificationDelivery) private readonly delivery: NotificationDelivery,
    @inject(TOKENS.counters) private readonly counters: CounterStore,
    @inject(TOKENS.clock) private readonly clock: Clock,
    @inject(TOKENS.audit) private readonly audit: AuditLog,
  ) {}

  async receive(provider: string, callback: SignedCallback): Promise<CallbackOutcome> {
    const channel = (["sms", "messaging"] as const).find((c) => c === provider);
    const secret = channel && this.secrets[channel];
    if (!channel || !secret) {
      throw new DomainError("not-found", "unknown-provider", `No notification provider "${provider}"`);
    }
    const { rawBody, signature, timestamp } = callback;
    if (!verifyCallbackSignature(secret, signature, timestamp, rawBody, this.clock.now())) {
      return { outcome: "bad-signature" };
    }
    const event = parseCallback(rawBody);
    const eventId = callback.eventId ?? event.eventId;
    const record = await this.log.byProviderMessage(channel, event.messageId);
    // The link to the message is written just before its attempt: until both are, the message is
    // not known yet, and the provider tries again later.
    if (!record?.attempts.some((a) => a.channel === channel && a.providerMessageId === event.messageId)) {
      throw new DomainError(
        "not-found",
        "unknown-message",
        `No ${channel} message ${event.messageId} was sent`,
      );
    }
    const seenKey = `notification-callback:${channel}:${eventId}`;
    if (!(await this.counters.setIfAbsent(seenKey, "1", SEEN_EVENT_TTL_MS))) {
      return { outcome: "duplicate", notificationUrn: record.notificationUrn };
    }
    try {
      const after = await this.apply(channel, record.notificationUrn, event, callback.correlationUrn);
      return { outcome: "applied", notificationUrn: after.notificationUrn, status: after.status };
    } catch (error) {
      // Not applied: the provider's retry of the same event must not be dropped as a duplicate.
      await this.counters.delete(seenKey);
      throw error;
    }
  }

  private async apply(
    channel: NotificationChannelName,
    notificationUrn: string,
    event: DeliveryCallback,
    correlationUrn: string,
  ): Promise<NotificationRecord> {
    const at = new Date(this.clock.now()).toISOString();
    const optsOut = event.type === "opted-out" || (event.type === "replied" && isStopReply(event.text ?? ""));
    const attemptStatus: AttemptStatus | null =
      event.type === "delivered"
        ? "DELIVERED"
        : event.type === "bounced"
          ? "BOUNCED"
          : optsOut
            ? "OPTED_OUT"
            : null;
    let fallBack = false;
    const record = await this.log.update(notificationUrn, (r) => {
      const attempts = r.attempts.map((a) =>
        a.channel === channel && a.providerMessageId === event.messageId && attemptStatus
          ? { ...a, status: attemptStatus, reason: event.reason ?? a.reason, updatedAt: at }
          : a,
      );
      const carries = r.channel === channel && attempts.some((a) => a.providerMessageId === event.messageId);
      fallBack = carries && event.type === "bounced" && r.status !== "FAILED";
      return {
        ...r,
        attempts,
        ...(carries && event.type === "delivered" ? { status: "DELIVERED" as const } : {}),
        ...(event.type === "replied"
          ? { replies: [...r.replies, { channel, text: event.text ?? "", at }] }
          : {}),
        updatedAt: at,
      };
    });
    if (optsOut) {
      const recipient = record.attempts.find((a) => a.providerMessageId === event.messageId)?.recipient;
      if (recipient) {
        const source = event.type === "opted-out" ? "opted-out" : "stop-reply";
        await this.preferences.optOut(record.tenant, channel, recipient, { source, notificationUrn });
        // A change of what the service may do for a passenger: on the case's trail, by the provider.
        await this.audit.append({
          tenant: record.tenant,
          actorUrn: `urn:notification-provider:${channel}`,
          action: "contact-preference.opt-out",
          entityUrn: notificationUrn,
          caseUrn: record.caseUrn,
          correlationUrn,
          reason: source === "stop-reply" ? `STOP reply on ${channel}` : `opted out on ${channel}`,
        });
      }
    }
    if (!fallBack) return record;
    const composed = await this.delivery.compose(record, record.carriesMagicLink);
    return this.delivery.attempt(notificationUrn, channelsAfter(channel), composed);
  }
}

function parseCallback(rawBody: string): DeliveryCallback {
  let body: Partial<DeliveryCallback> | undefined;
  try {
    body = JSON.parse(rawBody) as Partial<DeliveryCallback>;
  } catch {
    body = undefined;
  }
  if (
    !body ||
    typeof body.eventId !== "string" ||
    typeof body.messageId !== "string" ||
    !DELIVERY_STATUSES.includes(body.type as DeliveryCallback["type"])
  ) {
    throw new DomainError(
      "invalid",
      "invalid-callback",
      "The callback needs eventId, messageId and a known type",
    );
  }
  return body as DeliveryCallback;
}
