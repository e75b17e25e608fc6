/**
 * Delivery-status callbacks of the notification providers (spec 6.3), signed as the spec signs its
 * webhooks (4.5, 6.1): `X-Vendor-Signature: sha256=<base64 HMAC-SHA256>` over `timestamp + "." +
 * raw body`, keyed with the provider's secret, with the Unix-seconds timestamp in
 * `X-Vendor-Signature-Timestamp` and the provider's event id in `X-Vendor-Event-Id` (the dedupe key).
 */
import { hmacSignature, SIGNATURE_TOLERANCE_SECONDS, verifyHmacSignature } from "./hmac-signature.js";

export const DELIVERY_STATUSES = ["delivered", "bounced", "replied", "opted-out"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface DeliveryCallback {
  eventId: string;
  /** The provider's id of the message (what its send answered). */
  messageId: string;
  type: DeliveryStatus;
  /** ISO 8601 UTC. */
  occurredAt: string;
  /** `replied`: what the passenger wrote back. */
  text?: string;
  /** `bounced`: the provider's reason. */
  reason?: string;
}

export const CALLBACK_HEADERS = {
  signature: "x-vendor-signature",
  timestamp: "x-vendor-signature-timestamp",
  eventId: "x-vendor-event-id",
} as const;

/** How far a callback's timestamp may be from now (spec 6.1: 5 minutes). */
export const CALLBACK_TOLERANCE_SECONDS = SIGNATURE_TOLERANCE_SECONDS;

export const callbackSignature = hmacSignature;

/** True when `signature` is the secret's over this timestamp and body, and the timestamp is fresh. */
export const verifyCallbackSignature = verifyHmacSignature;
