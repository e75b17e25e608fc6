import type { PartnerPrincipal, Principal } from "../../src/app/principals.js";
import type { WebhookSubscriptions } from "../../src/app/webhooks/webhook-subscriptions.js";
import { PARTNER_EVENT_SCOPES } from "../../src/domain/webhooks/webhook-subscription.js";
import { admins } from "../../src/http/access.js";
import { ForbiddenError } from "../../src/http/errors.js";
import { defineRoute } from "../../src/http/route.js";
import {
  replayQuery,
  replaySchema,
  secretRotatedSchema,
  webhookCreatedSchema,
  webhookHealthSchema,
  webhookRegistrationBody,
  webhookSubscriptionSchema,
  webhookTestSchema,
} from "./webhook-schemas.js";

const tags = ["Partner webhooks"] as const;

/**
 * The spec gives these routes no single scope: a registration subscribes with whichever event
 * scopes it holds (spec 5.3, 6.1), so any one of them admits it.
 */
const subscribers = { kind: "any-token" } as const;
const SUBSCRIBERS = `A partner token with one of the scopes ${PARTNER_EVENT_SCOPES.join(", ")} (403 otherwise).`;

function subscriberOf(principal: Principal): PartnerPrincipal {
  if (principal.surface !== "partner" || !PARTNER_EVENT_SCOPES.some((scope) => principal.scopes.has(scope))) {
    throw new ForbiddenError(
      "insufficient-scope",
      `Webhooks need a partner token with one of ${PARTNER_EVENT_SCOPES.join(", ")}`,
    );
  }
  return principal;
}

const auditWebhook = (action: string) => ({
  action,
  subject: (input: { principal?: Principal | undefined }) => ({
    entityUrn: input.principal?.actorUrn ?? null,
    caseUrn: null,
  }),
});

/**
 * A registration's webhook (spec 4.3, 6.1): subscribe, read back, rotate the signing secret, test,
 * replay. Signing, headers, retries and the `data` of each event type: README "Webhooks".
 */
export function webhookRoutes(webhooks: WebhookSubscriptions) {
  return [
    defineRoute({
      method: "PUT",
      path: "/partner/v1/webhooks",
      operationId: "putWebhook",
      summary: "Register or replace the registration's webhook endpoint",
      description:
        `${SUBSCRIBERS} The first registration answers 201 with the HMAC signing secret, the only time it is shown; ` +
        "a replacement keeps the secret and the status (a paused subscription stays paused until a test delivery " +
        "succeeds) and answers 200.",
      tags,
      surface: "partner",
      access: subscribers,
      body: webhookRegistrationBody,
      audit: auditWebhook("webhook.register"),
      responses: {
        200: { description: "The endpoint replaced", schema: webhookSubscriptionSchema },
        201: {
          description: "The endpoint registered, with its signing secret",
          schema: webhookCreatedSchema,
        },
        422: { description: "A URL that is not https, or that resolves to a refused address" },
      },
      handler: async ({ principal, body }) => {
        const { created, subscription, secret } = await webhooks.register(subscriberOf(principal), body);
        return created && secret
          ? { status: 201, body: { ...subscription, secret } }
          : { status: 200, body: subscription };
      },
    }),
    defineRoute({
      method: "GET",
      path: "/partner/v1/webhooks",
      operationId: "getWebhook",
      summary: "The registration's webhook: status, recent deliveries and failures (never the secret)",
      description: SUBSCRIBERS,
      tags,
      surface: "partner",
      access: subscribers,
      audit: auditWebhook("webhook.read"),
      responses: {
        200: { description: "The subscription", schema: webhookSubscriptionSchema },
        404: { description: "No webhook registered" },
      },
      handler: async ({ principal }) => ({ status: 200, body: await webhooks.read(subscriberOf(principal)) }),
    }),
    defineRoute({
      method: "POST",
      path: "/partner/v1/webhooks/secret/rotate",
      operationId: "rotateWebhookSecret",
      summary: "A new signing secret; the old one keeps signing beside it for 14 days",
      description:
        `${SUBSCRIBERS} Spec 5.3: during the window every delivery carries two signatures, ` +
        "`X-Svc-Signature: sha256=<new>,sha256=<old>`; a receiver accepts the delivery when one of them verifies with " +
        "the secret it holds, so it can switch to the new secret any time in the 14 days.",
      tags,
      surface: "partner",
      access: subscribers,
      audit: auditWebhook("webhook.secret-rotate"),
      responses: {
        200: { description: "The new secret, shown once", schema: secretRotatedSchema },
        404: { description: "No webhook registered" },
      },
      handler: async ({ principal }) => ({
        status: 200,
        body: await webhooks.rotateSecret(subscriberOf(principal)),
      }),
    }),
    defineRoute({
      method: "POST",
      path: "/partner/v1/webhooks/test",
      operationId: "testWebhook",
      summary: "Send a webhook.test event now; a 2xx re-enables a paused subscription",
      description:
        `${SUBSCRIBERS} One attempt, no retries. When it succeeds and the subscription was PAUSED, it is ACTIVE ` +
        "again and the events held during the pause are delivered, oldest first.",
      tags,
      surface: "partner",
      access: subscribers,
      audit: auditWebhook("webhook.test"),
      responses: {
        200: { description: "How the test delivery went", schema: webhookTestSchema },
        404: { description: "No webhook registered" },
      },
      handler: async ({ principal, correlationUrn }) => ({
        status: 200,
        body: await webhooks.test(subscriberOf(principal), correlationUrn),
      }),
    }),
    defineRoute({
      method: "GET",
      path: "/partner/v1/events/replay",
      operationId: "replayEvents",
      summary: "Deliver the events from since to until again to the registered URL",
      description:
        `${SUBSCRIBERS} Both events included, both of the registration's airline and of the last 7 days (404 ` +
        "otherwise). Only the types the subscription takes are sent, with their original event URNs (receivers " +
        "dedupe on X-Svc-Event-Urn); nothing happens again in the platform. Deliveries are queued: the answer lists them.",
      tags,
      surface: "partner",
      access: subscribers,
      query: replayQuery,
      audit: auditWebhook("webhook.replay"),
      responses: {
        200: { description: "The events queued for delivery", schema: replaySchema },
        404: { description: "No webhook registered, or an event unknown or older than 7 days" },
      },
      handler: async ({ principal, query }) => {
        const eventUrns = await webhooks.replay(subscriberOf(principal), query.since, query.until);
        return {
          status: 200,
          body: { since: query.since, until: query.until, count: eventUrns.length, eventUrns },
        };
      },
    }),
  ];
}

/** Spec 6.1 as the operators see it: every webhook of their airline and how its deliveries go. */
export function webhookAdminRoutes(webhooks: WebhookSubscriptions) {
  return [
    defineRoute({
      method: "GET",
      path: "/v1/admin/webhooks",
      operationId: "listWebhookHealth",
      summary: "Partner webhooks of the airline: status, deliveries, failures, p95 latency",
      description: "Figures over the last 7 days of attempts; p95 over the last 1,000 delivered ones.",
      tags: ["Administration"],
      access: admins,
      responses: {
        200: {
          description: "One entry per registration with a webhook",
          schema: {
            type: "object",
            required: ["items"],
            properties: { items: { type: "array", items: webhookHealthSchema } },
          },
        },
      },
      handler: async ({ principal }) => ({
        status: 200,
        body: { items: await webhooks.healthOf(principal) },
      }),
    }),
  ];
}
