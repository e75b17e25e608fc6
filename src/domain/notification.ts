/**
 * A notification to one passenger group (spec 1 step 9, 4.1 notifications routes, 6.3 delivery
 * callbacks). The spec names no record shape (2.8: "not shown"); this is ours: one record per send
 * request, with every channel attempt in order, so the case's send log shows what went where and
 * why a channel was passed over.
 */
import type { PassengerLanguage } from "./languages.js";
import { uuidFromParts } from "./uuid.js";

export type NotificationChannelName = "sms" | "messaging" | "email";

/** `transport-return`: the re-accommodated flight and when and where the ride back picks the group up. */
export interface NotificationDetails {
  nextFlight?: string;
  pickupTime?: string;
  pickupLocation?: string;
}

/** The order channels are tried in: a channel that fails or is passed over hands on to the next. */
export const CHANNEL_ORDER: readonly NotificationChannelName[] = ["sms", "messaging", "email"];

/** `transport-return`: the return-leg reminder about 12 hours before the re-accommodated flight (spec 8.2). */
export const NOTIFICATION_TEMPLATES = ["offer", "voucher", "offer-reminder", "transport-return"] as const;
export type NotificationTemplate = (typeof NOTIFICATION_TEMPLATES)[number];

/**
 * - PENDING: attempts are running.
 * - SENT: a channel's provider took the message.
 * - DELIVERED: the provider reported it delivered.
 * - FAILED: every channel failed, bounced or was passed over.
 * - SUPPRESSED: not sent on purpose; `suppressedBecause` says why (a drill case, spec 4.2).
 */
export type NotificationStatus = "PENDING" | "SENT" | "DELIVERED" | "FAILED" | "SUPPRESSED";

/** Why a notification was recorded and not sent: its case is a drill (spec 4.2 "Run a drill"). */
export type SuppressionReason = "drill";

/**
 * - SKIPPED: not tried (no address for the channel, or the passenger opted out of it).
 * - FAILED: the provider refused or did not answer.
 * - SENT / DELIVERED / BOUNCED / OPTED_OUT: taken, then what the provider's callbacks said.
 */
export type AttemptStatus = "SKIPPED" | "FAILED" | "SENT" | "DELIVERED" | "BOUNCED" | "OPTED_OUT";

export interface DeliveryAttempt {
  channel: NotificationChannelName;
  recipient: string | null;
  status: AttemptStatus;
  reason: string | null;
  providerMessageId: string | null;
  at: string;
  updatedAt: string;
}

export interface NotificationReply {
  channel: NotificationChannelName;
  text: string;
  at: string;
}

export interface NotificationRecord {
  /** The document id: the notification URN. */
  _id: string;
  notificationUrn: string;
  tenant: string;
  caseUrn: string;
  groupId: string;
  subCaseUrn: string;
  template: NotificationTemplate;
  language: PassengerLanguage;
  status: NotificationStatus;
  /** The channel that took the message (or is being tried). */
  channel: NotificationChannelName | null;
  recipient: string | null;
  /** Spec 5.2 path A: the group's first notification carries a magic link (never stored itself). */
  carriesMagicLink: boolean;
  magicLinkExpiresAt: string | null;
  requestedBy: string;
  correlationUrn: string;
  dedupeKey: string;
  attempts: DeliveryAttempt[];
  replies: NotificationReply[];
  /** What the template says beyond the case's own facts (the return leg's pickup), kept for a fallback send. */
  details?: NotificationDetails;
  /** Set with status SUPPRESSED. */
  suppressedBecause?: SuppressionReason;
  createdAt: string;
  updatedAt: string;
  /**
   * Orders the log newest first: `createdAt` and a per-process sequence, since a saga sends a case's
   * groups within the same millisecond.
   */
  sequence: string;
}

/** The same tenant and dedupe key always name the same notification: a repeated send finds it. */
export function notificationUrnFor(tenant: string, dedupeKey: string): string {
  return uuidFromParts("urn:notification:", tenant, dedupeKey);
}

/** The channels after `channel` in CHANNEL_ORDER (all of them for null). */
export function channelsAfter(channel: NotificationChannelName | null): NotificationChannelName[] {
  return channel === null ? [...CHANNEL_ORDER] : CHANNEL_ORDER.slice(CHANNEL_ORDER.indexOf(channel) + 1);
}

/** The replies that opt a number out, as SMS providers and carriers honour them. */
const STOP_WORDS = new Set([
  "STOP",
  "STOPALL",
  "UNSUBSCRIBE",
  "CANCEL",
  "END",
  "QUIT",
  "ARRET",
  "PARAR",
  "BAJA",
]);

export function isStopReply(text: string): boolean {
  return STOP_WORDS.has(
    text
      .trim()
      .toUpperCase()
      .replace(/[^A-Z]/g, ""),
  );
}
