import { receiveSignedCallback } from "../../src/http/signed-callback.js";
import { caseRefOf } from "../../src/app/cases/case-changes.js";
import type { CaseChanges } from "../../src/app/cases/case-changes.js";
import type { DeliveryCallbacks } from "../../src/app/notifications/delivery-callbacks.js";
import type { NotificationLog } from "../../src/app/notifications/notification-log.js";
import type { PartnerNotifications } from "../../src/app/notifications/partner-notifications.js";
import { PARTNER_WRITE_BOUNDS } from "../../src/app/partner-write-bounds.js";
import type { ResendNotifications } from "../../src/app/notifications/resend-notifications.js";
import { DELIVERY_STATUSES } from "../../src/domain/notification-callbacks.js";
import { tooManyRequests } from "../../src/http/rate-limit.js";
import { pageAnswer, pageQuery } from "../../src/http/pagination.js";
import { defineRoute } from "../../src/http/route.js";
import { caseUrnParams, pageSchema, reasonSchema, urnOf } from "../../src/http/schemas/common.js";
import {
  notificationSchema,
  notificationToWire,
  passengerNotificationSchema,
  passengerNotificationToWire,
} from "./notification-schemas.js";

/** Spec 4.1: AIRPORT_OPERATOR and above, an airport-scoped operator for cases of its airport. */
const operators = { kind: "operator", anyOf: ["AIRPORT_OPERATOR"], airportScoped: true } as const;

const receiptSchema = {
  type: "object",
  required: ["groupId", "notificationUrn", "channel", "status", "replayed"],
  properties: {
    groupId: { type: "string" },
    notificationUrn: urnOf("notification"),
    channel: { type: ["string", "null"], enum: ["sms", "messaging", "email", null] },
    status: {
      type: "string",
      enum: ["SENT", "FAILED", "SUPPRESSED"],
      description: "SUPPRESSED: logged and sent nowhere, since the case is a drill (spec 4.2)",
    },
    replayed: { type: "boolean", description: "True when this group's send for the same key had been made" },
  },
} as const;

export interface NotificationRouteDeps {
  cases: CaseChanges;
  log: NotificationLog;
  resend: ResendNotifications;
  callbacks: DeliveryCallbacks;
  partner: PartnerNotifications;
}

export function notificationRoutes({ cases, log, resend, callbacks, partner }: NotificationRouteDeps) {
  return [
    defineRoute({
      method: "GET",
      path: "/v1/notifications/case/:caseUrn",
      operationId: "listCaseNotifications",
      summary: "The case's send log: every notification, newest first, with each channel attempt",
      description:
        "One item per notification (the saga's offer, operators' manual sends): its group, template, language, " +
        "status, the channel that carried it and every channel tried before it (SMS, messaging app, e-mail), " +
        "with the providers' delivery callbacks applied (delivered, bounced, opted out, replies).",
      tags: ["Notifications"],
      access: operators,
      params: caseUrnParams,
      query: pageQuery(),
      responses: {
        200: { description: "A page of the case's notifications", schema: pageSchema(notificationSchema) },
        404: { description: "No such case" },
      },
      handler: async ({ params, query, principal }) => {
        const snapshot = await cases.snapshot(params.caseUrn, principal);
        return pageAnswer(
          query,
          (page) => log.ofCase(snapshot.case.tenant, snapshot.case.urn, page),
          notificationToWire,
        );
      },
    }),
    defineRoute({
      method: "POST",
      path: "/v1/notifications/:caseUrn/send",
      operationId: "sendCaseNotification",
      summary: "Send a templated notification to groups of the case (e.g. resend the voucher)",
      description:
        "Templates only, never free text: `voucher` or `offer-reminder`, in each group's language, down the " +
        "channels in order (SMS, messaging app, e-mail) as every notification goes. Every named group must be " +
        "in the case, or nothing is sent (404 `group-not-found` with `groupIds`). With an `Idempotency-Key` a " +
        "retried request sends nothing again; without one each request is a new send.",
      tags: ["Notifications"],
      access: operators,
      params: caseUrnParams,
      body: {
        type: "object",
        required: ["groupIds", "template"],
        properties: {
          groupIds: {
            type: "array",
            items: { type: "string", minLength: 1, maxLength: 64 },
            minItems: 1,
            maxItems: 100,
            uniqueItems: true,
          },
          template: { type: "string", enum: ["voucher", "offer-reminder"] },
          reason: reasonSchema,
        },
      },
      audit: { action: "notification.send" },
      responses: {
        200: {
          description: "One receipt per group: the channel that took it, or FAILED when none did",
          schema: {
            type: "object",
            required: ["caseUrn", "items"],
            properties: { caseUrn: urnOf("case"), items: { type: "array", items: receiptSchema } },
          },
        },
        404: { description: "No such case, or a group not in it" },
      },
      handler: async ({ params, body, principal, idempotencyKey, correlationUrn }) => {
        const items = await resend.send(
          {
            caseUrn: params.caseUrn,
            groupIds: body.groupIds,
            template: body.template,
            idempotencyKey,
            correlationUrn,
          },
          principal,
        );
        return { status: 200, body: { caseUrn: caseRefOf(params.caseUrn).urn, items } };
      },
    }),
    defineRoute({
      method: "POST",
      path: "/partner/v1/passengers/:passengerUrn/notify",
      operationId: "partnerNotifyPassenger",
      summary: "Send a templated notification to a passenger's group",
      description:
        "Templates only, no free text (spec 4.3): `voucher` or `offer-reminder`, in the group's language, down the " +
        "channels in order (SMS, messaging app, e-mail). `caseUrn` names the case; without it, the passenger's " +
        "latest case of the airline. The passenger URN is `urn:passenger:<passenger id>`, as case reads show it. " +
        "The template's variables (the lead passenger's last name, the flight, its origin, the passenger site link) " +
        "are filled in from the case, never from the request: any other body member (a `text`, a `variables` " +
        "object) is refused with 400, so no words of the partner's reach the passenger. " +
        `Beyond the tier's write rate, each registration may notify ${PARTNER_WRITE_BOUNDS.notify.perHour} times an hour ` +
        "(429 with Retry-After). With an `Idempotency-Key` a retried request sends nothing again.",
      tags: ["Partner notifications"],
      access: { kind: "partner", scope: "passenger.notify" },
      params: { type: "object", properties: { passengerUrn: urnOf("passenger") } },
      body: {
        type: "object",
        required: ["template"],
        properties: {
          template: { type: "string", enum: ["voucher", "offer-reminder"] },
          caseUrn: urnOf("case"),
        },
      },
      audit: {
        action: "passenger.notify",
        subject: (input, response) => ({
          entityUrn: input.params.passengerUrn as string,
          caseUrn: (response.body as { caseUrn?: string } | undefined)?.caseUrn ?? null,
        }),
      },
      responses: {
        200: {
          description: "The channel that took it, or FAILED when none did",
          schema: {
            type: "object",
            required: ["passengerUrn", "caseUrn", ...receiptSchema.required],
            properties: {
              passengerUrn: urnOf("passenger"),
              caseUrn: urnOf("case"),
              ...receiptSchema.properties,
            },
          },
        },
        404: { description: "No such passenger in the case, or in any case of the airline" },
        429: { description: "The registration's notify bound is spent; see Retry-After" },
      },
      handler: async ({ params, body, principal, idempotencyKey, correlationUrn }) => {
        const outcome = await partner.send(principal, {
          passengerUrn: params.passengerUrn,
          template: body.template,
          caseUrn: body.caseUrn,
          idempotencyKey,
          correlationUrn,
        });
        if (outcome.limited) throw tooManyRequests(outcome.retryAfterSeconds);
        return {
          status: 200,
          body: {
            passengerUrn: params.passengerUrn,
            caseUrn: outcome.caseUrn,
            groupId: outcome.groupId,
            ...outcome.receipt,
          },
        };
      },
    }),
    defineRoute({
      method: "POST",
      path: "/v1/notifications/callbacks/:provider",
      operationId: "receiveNotificationCallback",
      summary: "Delivery-status callback of a notification provider (delivered, bounced, replied, opted-out)",
      description:
        "Spec 6.3. Signed by the provider: `X-Vendor-Signature: sha256=<base64 HMAC-SHA256>` over " +
        "`X-Vendor-Signature-Timestamp` (Unix seconds, at most 5 minutes off) + `.` + the raw body, keyed with " +
        "the provider's callback secret. A bad signature is 401; an unknown message 404; an `X-Vendor-Event-Id` " +
        "seen before is acknowledged (200, `duplicate: true`) and dropped. A bounce sends the notification on " +
        "the next channel; an opt-out or a STOP reply opts the address out of that channel for later sends.",
      tags: ["Notifications"],
      surface: "operator",
      access: { kind: "public" },
      idempotent: false,
      params: {
        type: "object",
        properties: { provider: { type: "string", enum: ["sms", "messaging"] } },
      },
      body: {
        type: "object",
        required: ["eventId", "messageId", "type", "occurredAt"],
        properties: {
          eventId: { type: "string", minLength: 1, maxLength: 200 },
          messageId: { type: "string", minLength: 1, maxLength: 200 },
          type: { type: "string", enum: DELIVERY_STATUSES },
          occurredAt: { type: "string", format: "date-time" },
          text: { type: "string", maxLength: 2000 },
          reason: { type: "string", maxLength: 2000 },
        },
      },
      responses: {
        200: {
          description: "Applied, or a duplicate acknowledged and dropped",
          schema: {
            type: "object",
            required: ["notificationUrn", "duplicate"],
            properties: { notificationUrn: urnOf("notification"), duplicate: { type: "boolean" } },
          },
        },
        401: { description: "Bad or stale signature" },
        404: { description: "No such provider, or no message of this provider with that id" },
      },
      handler: async ({ params, ctx, correlationUrn }) => {
        const outcome = await receiveSignedCallback(ctx, correlationUrn, (callback) =>
          callbacks.receive(params.provider, callback),
        );
        return {
          status: 200,
          body: { notificationUrn: outcome.notificationUrn, duplicate: outcome.outcome === "duplicate" },
        };
      },
    }),
    defineRoute({
      method: "GET",
      path: "/v1/me/notifications",
      operationId: "listPassengerNotifications",
      summary: "The notifications sent to the passenger's group (SMS, e-mail, messaging app), newest first",
      description:
        "The session's own group only. Each item says which channel carried it, to which address, and whether " +
        "the provider reported it delivered.",
      tags: ["Passenger"],
      access: { kind: "passenger" },
      query: pageQuery(),
      responses: {
        200: {
          description: "A page of the group's notifications",
          schema: pageSchema(passengerNotificationSchema),
        },
      },
      handler: ({ query, principal }) =>
        pageAnswer(
          query,
          (page) =>
            log.ofGroup(
              { tenant: principal.tenant, caseUrn: principal.caseUrn, groupId: principal.groupId },
              page,
            ),
          passengerNotificationToWire,
        ),
    }),
  ];
}
