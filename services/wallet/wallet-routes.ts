import { receiveSignedCallback } from "../../src/http/signed-callback.js";
import type { CancelWalletCard } from "../../src/app/wallet/cancel-wallet-card.js";
import type { WalletIssuancePause } from "../../src/app/wallet/wallet-issuance-pause.js";
import type { WalletReads } from "../../src/app/wallet/wallet-reads.js";
import type { WalletWebhooks } from "../../src/app/wallet/wallet-webhooks.js";
import { DomainError } from "../../src/domain/domain-error.js";
import { CALLBACK_HEADERS } from "../../src/domain/notification-callbacks.js";
import { admins } from "../../src/http/access.js";
import { defineRoute } from "../../src/http/route.js";
import { caseUrnParams, urnOf } from "../../src/http/schemas/common.js";
import {
  cancelCardBody,
  walletCardSchema,
  walletCardToWire,
  walletWebhookAnswerSchema,
  walletWebhookBody,
} from "./wallet-schemas.js";

const TAGS = ["Wallet"] as const;

/** Spec 4.2: operators (AIRPORT_OPERATOR and above), an airport-scoped one for its airport's cards. */
const operators = { kind: "operator", anyOf: ["AIRPORT_OPERATOR"], airportScoped: true } as const;

export interface WalletRouteDeps {
  cancel: CancelWalletCard;
  webhooks: WalletWebhooks;
  reads: WalletReads;
  issuance: WalletIssuancePause;
}

const issuanceSchema = {
  type: "object",
  required: ["status", "vendorErrorCode"],
  properties: {
    status: { type: "string", enum: ["RUNNING", "PAUSED"] },
    vendorErrorCode: {
      type: ["string", "null"],
      description: "PAUSED: the issuer's answer that paused issuance (HTTP_401, HTTP_403)",
    },
  },
} as const;

export function walletRoutes({ cancel, webhooks, reads, issuance }: WalletRouteDeps) {
  const issuanceOf = async (tenant: string) => {
    const code = await issuance.pausedBecause(tenant);
    return { status: code ? ("PAUSED" as const) : ("RUNNING" as const), vendorErrorCode: code ?? null };
  };
  return [
    defineRoute({
      method: "GET",
      path: "/v1/wallet/issuance",
      operationId: "getWalletIssuance",
      summary: "Whether the airline's meal cards are being issued, or paused by the issuer's refusal",
      description:
        "Spec 7: an issuer that refuses the airline's credentials (401, 403) pauses issuance for the airline; " +
        "until an administrator resumes it, the saga's wallet leg issues no card (the offers still go out).",
      tags: TAGS,
      access: admins,
      responses: { 200: { description: "The airline's issuance", schema: issuanceSchema } },
      handler: async ({ principal }) => ({ status: 200, body: await issuanceOf(principal.tenant) }),
    }),
    defineRoute({
      method: "POST",
      path: "/v1/wallet/issuance/resume",
      operationId: "resumeWalletIssuance",
      summary: "Resume the airline's meal card issuance once its issuer credentials are mended",
      description:
        "Audited. Cards are issued again from the next saga run on (an operator's compensation re-runs a " +
        "group's legs). Resuming issuance that runs changes nothing.",
      tags: TAGS,
      access: admins,
      idempotent: false,
      responses: { 200: { description: "The airline's issuance, running", schema: issuanceSchema } },
      handler: async ({ principal }) => {
        await issuance.resume(principal.tenant);
        return { status: 200, body: await issuanceOf(principal.tenant) };
      },
    }),
    defineRoute({
      method: "POST",
      path: "/v1/wallet/cards/:cardUrn/cancel",
      operationId: "cancelWalletCard",
      summary: "Cancel a wallet card (end of contingency, fraud, lost); irreversible",
      description:
        "Spec 4.2, 3.6. The issuer cancels the card and returns its unused balance to the tenant's funding pool; " +
        "the card becomes CANCELLED (a re-issue makes a new card), the cancellation is audited and " +
        "`wallet.card-cancelled` emitted. Cancelling a cancelled card answers it as it stands.",
      tags: TAGS,
      access: operators,
      params: { type: "object", properties: { cardUrn: urnOf("wallet-card") } },
      body: cancelCardBody,
      responses: {
        200: { description: "The cancelled card", schema: walletCardSchema },
        404: { description: "No such card" },
      },
      handler: async ({ params, body, principal, correlationUrn }) => {
        const { card: cancelled } = await cancel.cancelWalletCard({
          cardUrn: params.cardUrn,
          reason: body.reason,
          by: principal.actorUrn,
          correlationUrn,
          caller: principal,
        });
        return { status: 200, body: walletCardToWire(await reads.cardByUrn(cancelled.urn)) };
      },
    }),
    defineRoute({
      method: "GET",
      path: "/v1/wallet/cases/:caseUrn/cards",
      operationId: "listCaseWalletCards",
      summary: "The case's wallet cards with balances and transaction history",
      description:
        "Every card issued to the case's groups, cancelled ones included (a re-issue is a new card), oldest " +
        "first per group. Amounts in minor units.",
      tags: TAGS,
      access: { kind: "operator", anyOf: ["AIRPORT_OPERATOR", "FINANCE_AUDIT"], airportScoped: true },
      params: caseUrnParams,
      responses: {
        200: {
          description: "The case's cards",
          schema: {
            type: "object",
            required: ["caseUrn", "items"],
            properties: { caseUrn: urnOf("case"), items: { type: "array", items: walletCardSchema } },
          },
        },
        404: { description: "No such case" },
      },
      handler: async ({ params, principal }) => {
        const cards = await reads.cardsOfCase(principal, params.caseUrn);
        return { status: 200, body: { caseUrn: params.caseUrn, items: cards.map(walletCardToWire) } };
      },
    }),
    defineRoute({
      method: "POST",
      path: "/v1/wallet/webhooks/:vendor",
      operationId: "receiveWalletWebhook",
      summary: "Card activity from the wallet issuer: authorization, capture, reversal, hold released",
      description:
        "Spec 4.5, 6.3, on the wallet ingress. Signed by the issuer with the tenant's webhook secret: " +
        "`X-Vendor-Signature: sha256=<base64 HMAC-SHA256>` over `X-Vendor-Signature-Timestamp` (Unix seconds, at " +
        "most 5 minutes off) + `.` + the raw body; `X-Vendor-Event-Id` is the dedupe key. AUTHORIZATION holds " +
        "its amount, CAPTURE settles it, REVERSAL and HOLD_RELEASED release it, each applied atomically with its " +
        "record; `wallet.card-tx` is emitted. A bad signature is 401, an unknown card 404; an event id seen " +
        "before is acknowledged (200, `duplicate: true`) and dropped. The answer is signed the same way.",
      tags: TAGS,
      surface: "operator",
      access: { kind: "public" },
      idempotent: false,
      params: { type: "object", properties: { vendor: { type: "string", pattern: "^[a-z0-9-]{1,40}$" } } },
      body: walletWebhookBody,
      responses: {
        200: {
          description: "Applied, or a duplicate acknowledged and dropped; signed",
          schema: walletWebhookAnswerSchema,
          headers: {
            "X-Vendor-Signature": {
              description: "`sha256=<base64 HMAC-SHA256>` of the answer, as the request's",
            },
            "X-Vendor-Signature-Timestamp": { description: "Unix seconds the answer's signature covers" },
          },
        },
        401: { description: "Bad or stale signature" },
        404: { description: "No such issuer, or no card with that card_id" },
      },
      handler: async ({ params, body, ctx, correlationUrn }) => {
        const eventId = ctx.get(CALLBACK_HEADERS.eventId);
        if (!eventId) {
          throw new DomainError(
            "invalid",
            "wallet-event-id-missing",
            "The webhook carries no X-Vendor-Event-Id",
          );
        }
        // Member by member: on Node 20 a spread followed by more members takes a slow path.
        const outcome = await receiveSignedCallback(ctx, correlationUrn, (callback) =>
          webhooks.receive(params.vendor, {
            rawBody: callback.rawBody,
            body,
            signature: callback.signature,
            timestamp: callback.timestamp,
            eventId,
            correlationUrn: callback.correlationUrn,
          }),
        );
        return {
          status: 200,
          body: outcome.answer,
          headers: {
            "X-Vendor-Signature": outcome.signature,
            "X-Vendor-Signature-Timestamp": outcome.timestamp,
          },
        };
      },
    }),
  ];
}
