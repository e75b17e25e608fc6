import { timestampSchema, urnOf } from "../../src/http/schemas/common.js";
import { PARTNER_EVENT_TYPES } from "../../src/domain/webhooks/webhook-subscription.js";

const eventTypeSchema = { type: "string", enum: PARTNER_EVENT_TYPES } as const;

export const webhookRegistrationBody = {
  type: "object",
  required: ["url"],
  properties: {
    url: {
      type: "string",
      minLength: 1,
      maxLength: 2048,
      description:
        "https URL; http only to a loopback host while WEBHOOK_ALLOW_LOOPBACK_HTTP is on. Hosts that resolve to " +
        "private, link-local, loopback or metadata addresses are refused (422).",
    },
    eventTypes: {
      type: "array",
      items: eventTypeSchema,
      minItems: 1,
      uniqueItems: true,
      description: "Default: every type the registration's scopes allow; a type they do not allow is a 403",
    },
  },
} as const;

const attemptSchema = {
  type: "object",
  required: ["eventUrn", "eventType", "attempt", "at", "delivered", "status", "error", "latencyMs"],
  properties: {
    eventUrn: urnOf("event"),
    eventType: { type: "string" },
    attempt: { type: "integer", minimum: 1, maximum: 7 },
    at: timestampSchema,
    delivered: { type: "boolean" },
    status: { type: ["integer", "null"], description: "The receiver's HTTP status; null when none came" },
    error: { type: ["string", "null"] },
    latencyMs: { type: "number", description: "How long the receiver took to answer" },
  },
} as const;

const subscriptionProperties = {
  clientId: { type: "string" },
  partnerUrn: urnOf("partner"),
  url: { type: "string" },
  eventTypes: { type: "array", items: { type: "string" } },
  status: { type: "string", enum: ["ACTIVE", "PAUSED"] },
  pausedAt: { type: ["string", "null"], format: "date-time" },
  secretRotatedAt: timestampSchema,
  previousSecretAcceptedUntil: {
    type: ["string", "null"],
    format: "date-time",
    description:
      "While a rotation's 14-day window is open: until when deliveries also carry the old secret's signature",
  },
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
  deliveries: { type: "integer", description: "Delivered attempts in the last 7 days" },
  failures: { type: "integer", description: "Failed attempts in the last 7 days" },
  p95LatencyMs: {
    type: ["number", "null"],
    description: "Receiver answer time of delivered attempts at p95",
  },
} as const;

const subscriptionRequired = Object.keys(subscriptionProperties);

/** A subscription as the operators' health read shows it. */
export const webhookHealthSchema = {
  type: "object",
  required: subscriptionRequired,
  properties: subscriptionProperties,
} as const;

/** A subscription as its partner reads it: never the secret. */
export const webhookSubscriptionSchema = {
  type: "object",
  required: [...subscriptionRequired, "recentAttempts"],
  properties: {
    ...subscriptionProperties,
    recentAttempts: {
      type: "array",
      items: attemptSchema,
      description: "The last 20 attempts, newest first",
    },
  },
} as const;

export const webhookCreatedSchema = {
  type: "object",
  required: [...subscriptionRequired, "recentAttempts", "secret"],
  properties: {
    ...webhookSubscriptionSchema.properties,
    secret: {
      type: "string",
      description: "The HMAC signing secret, shown in this answer only; rotate it to get a new one",
    },
  },
} as const;

export const secretRotatedSchema = {
  type: "object",
  required: ["secret", "previousSecretAcceptedUntil"],
  properties: {
    secret: { type: "string", description: "The new signing secret, shown in this answer only" },
    previousSecretAcceptedUntil: timestampSchema,
  },
} as const;

export const webhookTestSchema = {
  type: "object",
  required: ["delivered", "status", "error", "latencyMs", "eventUrn", "subscriptionStatus", "released"],
  properties: {
    delivered: { type: "boolean" },
    status: { type: ["integer", "null"] },
    error: { type: ["string", "null"] },
    latencyMs: { type: "number" },
    eventUrn: urnOf("event"),
    subscriptionStatus: { type: "string", enum: ["ACTIVE", "PAUSED"] },
    released: { type: "integer", description: "Events held during a pause, now being delivered" },
  },
} as const;

export const replayQuery = {
  type: "object",
  required: ["since", "until"],
  properties: {
    since: { ...urnOf("event"), description: "The first event to deliver again (included)" },
    until: { ...urnOf("event"), description: "The last event to deliver again (included)" },
  },
} as const;

export const replaySchema = {
  type: "object",
  required: ["since", "until", "count", "eventUrns"],
  properties: {
    since: urnOf("event"),
    until: urnOf("event"),
    count: { type: "integer" },
    eventUrns: { type: "array", items: urnOf("event"), description: "Queued for delivery, oldest first" },
  },
} as const;
