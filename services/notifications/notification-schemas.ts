import { PASSENGER_LANGUAGES } from "../../src/domain/languages.js";
import {
  CHANNEL_ORDER,
  NOTIFICATION_TEMPLATES,
  type NotificationRecord,
} from "../../src/domain/notification.js";
import { timestampSchema, urnOf } from "../../src/http/schemas/common.js";

const nullableString = { type: ["string", "null"] } as const;
const channelSchema = { type: "string", enum: CHANNEL_ORDER } as const;

const attemptSchema = {
  type: "object",
  required: ["channel", "recipient", "status", "reason", "providerMessageId", "at", "updatedAt"],
  properties: {
    channel: channelSchema,
    recipient: nullableString,
    status: {
      type: "string",
      enum: ["SKIPPED", "FAILED", "SENT", "DELIVERED", "BOUNCED", "OPTED_OUT"],
      description:
        "SKIPPED: no address for the channel, or the passenger opted out of it; FAILED: the provider refused " +
        "or did not answer; SENT: the provider took it; DELIVERED, BOUNCED, OPTED_OUT: what its callbacks said",
    },
    reason: {
      ...nullableString,
      description: "Why it was skipped or failed, or the provider's bounce reason",
    },
    providerMessageId: nullableString,
    at: timestampSchema,
    updatedAt: timestampSchema,
  },
} as const;

const commonProperties = {
  notificationUrn: urnOf("notification"),
  caseUrn: urnOf("case"),
  groupId: { type: "string" },
  subCaseUrn: urnOf("sub-case"),
  template: { type: "string", enum: NOTIFICATION_TEMPLATES },
  language: { type: "string", enum: PASSENGER_LANGUAGES },
  status: {
    type: "string",
    enum: ["PENDING", "SENT", "DELIVERED", "FAILED", "SUPPRESSED"],
    description:
      "PENDING while channels are tried; SENT once a provider took it; DELIVERED once the provider said so; " +
      "FAILED when every channel failed, bounced or was passed over; SUPPRESSED when nothing was sent on " +
      "purpose (see suppressedBecause)",
  },
  channel: { ...channelSchema, type: ["string", "null"], enum: [...CHANNEL_ORDER, null] },
  recipient: nullableString,
  carriesMagicLink: {
    type: "boolean",
    description:
      "The group's first notification carries a magic link (spec 5.2 path A); the link is never shown",
  },
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
} as const;

/** One notification as the case's send log shows it to operators. */
export const notificationSchema = {
  type: "object",
  required: [...Object.keys(commonProperties), "requestedBy", "correlationUrn", "attempts", "replies"],
  properties: {
    ...commonProperties,
    suppressedBecause: {
      type: ["string", "null"],
      enum: ["drill", null],
      description: "Why a SUPPRESSED notification was not sent: drill, the case is a drill (spec 4.2)",
    },
    requestedBy: {
      type: "string",
      description: "`urn:system:...` for the saga, the operator's URN for a manual send",
    },
    correlationUrn: { type: "string" },
    attempts: {
      type: "array",
      items: attemptSchema,
      description: "Every channel tried, in order (SMS, messaging, e-mail)",
    },
    replies: {
      type: "array",
      items: {
        type: "object",
        required: ["channel", "text", "at"],
        properties: { channel: channelSchema, text: { type: "string" }, at: timestampSchema },
      },
    },
  },
} as const;

/** One notification as the passenger sees it: what reached them, where, when. */
export const passengerNotificationSchema = {
  type: "object",
  required: Object.keys(commonProperties),
  properties: commonProperties,
} as const;

export function notificationToWire(record: NotificationRecord) {
  const {
    _id,
    tenant: _t,
    dedupeKey: _d,
    magicLinkExpiresAt: _m,
    sequence: _s,
    suppressedBecause,
    ...wire
  } = record;
  return { ...wire, suppressedBecause: suppressedBecause ?? null };
}

export function passengerNotificationToWire(record: NotificationRecord) {
  return {
    notificationUrn: record.notificationUrn,
    caseUrn: record.caseUrn,
    groupId: record.groupId,
    subCaseUrn: record.subCaseUrn,
    template: record.template,
    language: record.language,
    status: record.status,
    channel: record.channel,
    recipient: record.recipient,
    carriesMagicLink: record.carriesMagicLink,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}
