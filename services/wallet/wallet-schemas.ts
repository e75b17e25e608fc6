import {
  WALLET_CANCEL_REASONS,
  WALLET_CARD_STATUSES,
  WALLET_TRANSACTION_TYPES,
  type WalletCard,
  availableBalance,
} from "../../src/domain/wallet/wallet-card.js";
import { timestampSchema, urnOf } from "../../src/http/schemas/common.js";

const amountSchema = {
  type: "object",
  required: ["value", "currency"],
  properties: {
    value: { type: "integer", minimum: 0, description: "Minor units" },
    currency: { type: "string", pattern: "^[A-Z]{3}$", description: "ISO 4217" },
  },
} as const;

const nullableString = { type: ["string", "null"] } as const;
const nullableTimestamp = { type: ["string", "null"], format: "date-time" } as const;

/** A card with its balances (minor units) and history, as operators read it (spec 2.7). */
export const walletCardSchema = {
  type: "object",
  required: [
    "cardUrn",
    "caseUrn",
    "groupId",
    "status",
    "currency",
    "initialBalance",
    "currentBalance",
    "availableBalance",
    "issuedAt",
    "cancelledAt",
    "cancelReason",
    "returnedToPool",
    "drops",
    "transactions",
  ],
  properties: {
    cardUrn: urnOf("wallet-card"),
    caseUrn: urnOf("case"),
    groupId: { type: "string" },
    status: { type: "string", enum: WALLET_CARD_STATUSES },
    currency: { type: "string" },
    initialBalance: { type: "integer", description: "Frozen at issue: the most the card may hold" },
    currentBalance: { type: "integer", description: "Settled funds" },
    availableBalance: { type: "integer", description: "Settled funds less the authorization holds" },
    issuedAt: timestampSchema,
    cancelledAt: nullableTimestamp,
    cancelReason: nullableString,
    returnedToPool: {
      type: ["integer", "null"],
      description: "Given back to the funding pool on cancellation",
    },
    drops: {
      type: "array",
      description: "Scheduled loads: 25 % at issue, 35 % at noon, 40 % at 18:00 local (spec 8.2)",
      items: {
        type: "object",
        required: ["id", "dueAt", "amount", "loadedAt"],
        properties: {
          id: { type: "string", enum: ["issue", "noon", "evening"] },
          dueAt: timestampSchema,
          amount: { type: "integer" },
          loadedAt: nullableTimestamp,
        },
      },
    },
    transactions: {
      type: "array",
      items: {
        type: "object",
        required: ["eventId", "type", "amount", "merchant", "occurredAt", "source"],
        properties: {
          eventId: { type: "string" },
          type: { type: "string", enum: WALLET_TRANSACTION_TYPES },
          amount: amountSchema,
          merchant: nullableString,
          occurredAt: timestampSchema,
          source: { type: "string", enum: ["webhook", "reconciliation"] },
        },
      },
    },
  },
} as const;

export function walletCardToWire(card: WalletCard) {
  return {
    cardUrn: card.urn,
    caseUrn: card.caseUrn,
    groupId: card.groupId,
    status: card.status,
    currency: card.currency,
    initialBalance: card.initialBalance,
    currentBalance: card.currentBalance,
    availableBalance: availableBalance(card),
    issuedAt: card.issuedAt,
    cancelledAt: card.cancelledAt,
    cancelReason: card.cancelReason,
    returnedToPool: card.returnedToPool,
    drops: card.drops.map(({ id, dueAt, amount, loadedAt }) => ({ id, dueAt, amount, loadedAt })),
    transactions: card.transactions.map((t) => ({
      eventId: t.eventId,
      type: t.type,
      amount: { value: t.amount, currency: t.currency },
      merchant: t.merchant,
      occurredAt: t.occurredAt,
      source: t.source,
    })),
  };
}

export const cancelCardBody = {
  type: "object",
  required: ["reason"],
  properties: {
    reason: {
      type: "string",
      enum: WALLET_CANCEL_REASONS,
      description: "End of contingency, fraud or lost (spec 4.2)",
    },
  },
} as const;

/** The issuer's webhook body (spec 4.5). */
export const walletWebhookBody = {
  type: "object",
  required: ["type", "card_id", "amount", "occurred_at"],
  properties: {
    type: { type: "string", enum: WALLET_TRANSACTION_TYPES },
    card_id: { type: "string", minLength: 1, maxLength: 200 },
    amount: amountSchema,
    merchant: {
      type: ["object", "null"],
      properties: { name: { type: "string", maxLength: 200 } },
      additionalProperties: true,
    },
    occurred_at: timestampSchema,
    authorization_id: {
      type: ["string", "null"],
      maxLength: 200,
      description: "The authorization a capture, reversal or release refers to",
    },
  },
} as const;

export const walletWebhookAnswerSchema = {
  type: "object",
  required: ["cardUrn", "eventId", "duplicate"],
  properties: {
    cardUrn: urnOf("wallet-card"),
    eventId: { type: "string" },
    duplicate: {
      type: "boolean",
      description: "True when the event id was seen before: acknowledged and dropped",
    },
  },
} as const;
