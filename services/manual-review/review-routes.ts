import { supervisors } from "../../src/http/access.js";
import type { ReviewItemTurn } from "../../actors/ReviewItemActor.js";
import { reviewItemRefOf } from "../../src/app/manual-review/review-item-addresses.js";
import type { ReviewQueueEntry } from "../../src/app/manual-review/review-queue-index.js";
import type { OperatorPrincipal } from "../../src/app/principals.js";
import type { ReviewItem } from "../../src/domain/review-item.js";
import type { AuditSubject } from "../../src/http/route.js";
import { defineRoute } from "../../src/http/route.js";
import { pageAnswer } from "../../src/http/pagination.js";
import { reasonBody } from "../../src/http/schemas/common.js";
import { splitBody } from "../../src/http/schemas/passenger-groups.js";
import type { ReviewUseCases } from "./review-use-cases.js";
import {
  assignBody,
  overrideBody,
  queueQuery,
  rebookBody,
  relaxBody,
  resolveBody,
  reviewItemParams,
  reviewItemSchema,
  reviewPageSchema,
} from "./review-schemas.js";

const tags = ["Manual review"];

/**
 * Spec 4.1: the queue and its assign/resolve/escalate are OPS_SUPERVISOR and above (`supervisors`).
 * Spec 4.2 gives AIRPORT_OPERATOR (scoped to the airport) the resolve; claim, rebook and split,
 * whose roles it leaves open, follow it. Relax (a policy change) and override (an allocation
 * override, spec 4.2 "Override allocation") stay with OPS_SUPERVISOR and above.
 */
const operators = { kind: "operator", anyOf: ["AIRPORT_OPERATOR"], airportScoped: true } as const;

const itemResponse = (description: string) => ({ description, schema: reviewItemSchema });
const refusals = {
  404: { description: "No such review item" },
  409: {
    description: "`review-item-assigned` (another operator holds it: `assignedTo`) or `review-item-resolved`",
  },
} as const;

function toWire(item: ReviewItem | ReviewQueueEntry) {
  const { tenant: _tenant, ...wire } = item as ReviewItem & Partial<ReviewQueueEntry>;
  const { _id, priorityRank: _rank, revision: _revision, ...rest } = wire;
  return rest as unknown as Omit<ReviewItem, "tenant">;
}

/** The audit entry names the item and its case. */
function auditItem(action: string): AuditSubject {
  return {
    action,
    subject: ({ params }, response) => ({
      entityUrn: reviewItemRefOf(String((params as { itemUrn: string }).itemUrn)).urn,
      caseUrn: (response.body as { caseUrn?: string } | undefined)?.caseUrn ?? null,
    }),
  };
}

interface ItemRequest {
  params: { itemUrn: string };
  principal: OperatorPrincipal;
  correlationUrn: string;
}

/** What every action on a review item takes: who acts, on which item, under which request. */
const onItem = ({ params, principal, correlationUrn }: ItemRequest) => ({
  caller: principal,
  urn: params.itemUrn,
  correlationUrn,
});

const answer = <S extends 200 | 202>(status: S, turn: ReviewItemTurn) => ({
  status,
  body: toWire(turn.item),
});

/**
 * The manual-review queue (spec 2.5, 3.5): the operator API routes of 4.1 and the field-manual
 * actions of 4.2. Resolve exists in both forms over one handler; the forms differ in role.
 */
export function manualReviewRoutes(review: ReviewUseCases) {
  const { actions } = review;
  const resolve = async (input: ItemRequest & { body: { resolution: string; reason: string } }) =>
    answer(200, await actions.resolve({ ...onItem(input), ...input.body }));
  // Rebook and override are one action; override names the provider offer as well.
  const rebook = async (
    input: ItemRequest & { body: { hotelUrn: string; reason: string; providerOfferId?: string } },
  ) => answer(202, await actions.rebook({ ...onItem(input), ...input.body }));
  const rebooking = {
    tags,
    params: reviewItemParams,
    responses: {
      202: itemResponse("Booking was asked; the item shows the pending request"),
      ...refusals,
    },
    handler: rebook,
  } as const;
  const resolution = {
    tags,
    params: reviewItemParams,
    body: resolveBody,
    audit: auditItem("review-item.resolve"),
    description:
      "Closes the item with a resolution and a reason; a case the item held in MANUAL_REVIEW returns to the " +
      "normal flow. The caller must hold the item or take it (nobody holds it, or the caller is " +
      "OPS_SUPERVISOR or above).",
    responses: { 200: itemResponse("The resolved item"), ...refusals },
    handler: resolve,
  } as const;

  return [
    defineRoute({
      method: "GET",
      path: "/v1/booking/manual-review",
      operationId: "listManualReviewItems",
      summary: "The manual-review queue, HIGH priority first, then oldest first",
      tags,
      access: supervisors,
      query: queueQuery,
      responses: { 200: { description: "A page of review items", schema: reviewPageSchema } },
      handler: ({ query, principal }) =>
        pageAnswer(
          query,
          (request) =>
            review.index.page(
              {
                tenant: principal.tenant,
                ...(principal.airport ? { airport: principal.airport } : {}),
                ...(query.category ? { category: query.category } : {}),
                ...(query.priority ? { priority: query.priority } : {}),
                ...(query.state ? { state: query.state } : {}),
              },
              request,
            ),
          toWire,
        ),
    }),
    defineRoute({
      method: "GET",
      path: "/v1/booking/manual-review/:itemUrn",
      operationId: "getManualReviewItem",
      summary: "One review item",
      tags,
      access: operators,
      params: reviewItemParams,
      responses: { 200: itemResponse("The review item"), 404: refusals[404] },
      handler: async ({ params, principal }) => ({
        status: 200,
        body: toWire(await review.changes.find(params.itemUrn, principal)),
      }),
    }),
    defineRoute({
      method: "POST",
      path: "/v1/booking/manual-review/:itemUrn/assign",
      operationId: "assignManualReviewItem",
      summary: "Assign a review item to a user of the airline (the caller by default)",
      description: "Reassigns whoever held it. The assignee must be able to work the item's airport.",
      tags,
      access: supervisors,
      params: reviewItemParams,
      body: assignBody,
      audit: auditItem("review-item.assign"),
      responses: {
        200: itemResponse("The assigned item"),
        ...refusals,
        422: { description: "`assignee-not-allowed`: not a user who may work this item" },
      },
      handler: async (input) =>
        answer(
          200,
          await actions.assign({
            ...onItem(input),
            ...(input.body.assignee ? { assignee: input.body.assignee } : {}),
          }),
        ),
    }),
    defineRoute({
      method: "POST",
      path: "/v1/booking/manual-review/:itemUrn/escalate",
      operationId: "escalateManualReviewItem",
      summary: "Escalate a review item: priority one level up, assignee released",
      tags,
      access: supervisors,
      params: reviewItemParams,
      body: reasonBody,
      audit: auditItem("review-item.escalate"),
      responses: { 200: itemResponse("The escalated item"), ...refusals },
      handler: async (input) =>
        answer(200, await actions.escalate({ ...onItem(input), reason: input.body.reason })),
    }),
    defineRoute({
      method: "POST",
      path: "/v1/booking/manual-review/:itemUrn/resolve",
      operationId: "resolveManualReviewItem",
      summary: "Resolve a review item",
      access: supervisors,
      ...resolution,
    }),
    defineRoute({
      method: "POST",
      path: "/manual-review/:itemUrn/resolve",
      operationId: "resolveManualReviewItemFieldManual",
      summary: "Resolve a review item (field-manual form; AIRPORT_OPERATOR of the item's airport may)",
      access: operators,
      ...resolution,
    }),
    defineRoute({
      method: "POST",
      path: "/manual-review/:itemUrn/claim",
      operationId: "claimManualReviewItem",
      summary: "Claim a review item: one operator works it at a time",
      description:
        "Claiming an item one holds already changes nothing. Another operator's claim gets 409 with `assignedTo`.",
      tags,
      access: operators,
      params: reviewItemParams,
      audit: auditItem("review-item.claim"),
      responses: { 200: itemResponse("The item, assigned to the caller"), ...refusals },
      handler: async (input) => answer(200, await actions.claim(onItem(input))),
    }),
    defineRoute({
      method: "POST",
      path: "/manual-review/:itemUrn/rebook",
      operationId: "rebookManualReviewItem",
      summary: "Rebook the item's groups on a hotel",
      description:
        "Booking is asked to book every affected group still without a room on the hotel " +
        "(`booking.group-requested`). The item resolves as REBOOKED once every group is booked; a refusal " +
        "joins attemptedHotels. One request at a time (409 `rebooking-in-progress`).",
      access: operators,
      body: rebookBody,
      audit: auditItem("review-item.rebook"),
      ...rebooking,
    }),
    defineRoute({
      method: "POST",
      path: "/manual-review/:itemUrn/override",
      operationId: "overrideManualReviewItem",
      summary: "Book the item's groups on one offer of a hotel",
      description: "As rebook, on the named provider offer.",
      access: supervisors,
      body: overrideBody,
      audit: auditItem("review-item.override"),
      ...rebooking,
    }),
    defineRoute({
      method: "POST",
      path: "/manual-review/:itemUrn/relax",
      operationId: "relaxPolicyForManualReviewItem",
      summary: "Relax the policy for this case only, and run the wave again",
      description:
        "`fields` are policy constraints with their new values, as a policy patch writes them (null removes " +
        "a constraint). They are stored as the case's policy override (`policy-overrides`) and allocation " +
        "is asked to re-run the case's wave (`allocation.rerun-requested`).",
      tags,
      access: supervisors,
      params: reviewItemParams,
      body: relaxBody,
      audit: auditItem("review-item.relax"),
      responses: { 202: itemResponse("The override is stored and the re-run requested"), ...refusals },
      handler: async (input) => answer(202, await actions.relax({ ...onItem(input), ...input.body })),
    }),
    defineRoute({
      method: "POST",
      path: "/manual-review/:itemUrn/split",
      operationId: "splitManualReviewItemGroup",
      summary: "Split one of the item's passenger groups",
      description:
        "The group is the one all the listed passengers belong to; it must be one the item is about. The parts " +
        "(`<groupId>-1`, ...) replace it among the affected groups.",
      tags,
      access: operators,
      params: reviewItemParams,
      body: splitBody,
      audit: auditItem("review-item.split"),
      responses: {
        200: itemResponse("The item with the parts among its groups"),
        ...refusals,
        422: { description: "`split-outside-item`: the passengers are not all of one group of the item" },
      },
      handler: async (input) => answer(200, await actions.split({ ...onItem(input), ...input.body })),
    }),
  ];
}
