import type { SubCaseView } from "../../src/domain/events/sub-case.js";
import { findSubCase } from "../../src/app/sub-cases/find-sub-case.js";
import { LOCK_TTL_MS, type SubCaseLocks } from "../../src/app/sub-cases/sub-case-locks.js";
import {
  COMPENSATION_ACTIONS,
  type SubmitCompensation,
} from "../../src/app/sub-cases/submit-compensation.js";
import { DomainError } from "../../src/domain/domain-error.js";
import { SUB_CASE_STATUSES } from "../../src/domain/sub-case.js";
import type { OperatorPrincipal } from "../../src/app/principals.js";
import { assertAirport, assertTenant } from "../../src/app/authorization.js";
import { defineRoute } from "../../src/http/route.js";
import { reasonSchema, timestampSchema, urnOf, urnSchema } from "../../src/http/schemas/common.js";
import type { ActorRuntime } from "../../src/runtime/actor-runtime.js";

const operators = { kind: "operator", anyOf: ["AIRPORT_OPERATOR"], airportScoped: true } as const;

const subCaseParams = {
  type: "object",
  properties: { subCaseUrn: urnOf("sub-case") },
} as const;

const fencingTokenSchema = {
  type: "integer",
  minimum: 1,
  description: "The fencing token the lock call returned",
} as const;

const lockSchema = {
  type: "object",
  required: ["subCaseUrn", "caseUrn", "lockedBy", "fencingToken", "expiresAt", "expiresInSeconds"],
  properties: {
    subCaseUrn: urnSchema,
    caseUrn: urnSchema,
    lockedBy: { ...urnSchema, description: "The holder's user URN" },
    fencingToken: {
      type: "integer",
      description:
        "Present it with every write under the lock. A renewal keeps it; any new lock gets a higher one",
    },
    expiresAt: timestampSchema,
    expiresInSeconds: { type: "integer" },
  },
} as const;

const subCaseSchema = {
  type: "object",
  required: ["subCaseUrn", "caseUrn", "groupId", "status", "version", "lockedBy", "lockExpiresAt"],
  properties: {
    subCaseUrn: urnSchema,
    caseUrn: urnSchema,
    groupId: { type: "string" },
    status: { type: "string", enum: SUB_CASE_STATUSES },
    version: { type: "integer" },
    lockedBy: { type: ["string", "null"] },
    lockExpiresAt: { type: ["string", "null"], format: "date-time" },
  },
} as const;

/** The operator's read: the state, the offer and the passenger's answer, and the last run. */
const subCaseDetailSchema = {
  type: "object",
  required: [...subCaseSchema.required, "offer", "answer", "sagaInstanceId", "vendorErrorCode", "updatedAt"],
  properties: {
    ...subCaseSchema.properties,
    offer: {
      type: ["object", "null"],
      description: "What the last saga run offers the passenger; `answerBy` is the deadline",
      properties: {
        reservationUrn: urnSchema,
        voucherUrn: { type: ["string", "null"] },
        answerBy: { type: ["string", "null"], format: "date-time" },
      },
    },
    answer: {
      type: ["object", "null"],
      properties: {
        kind: { type: "string", enum: ["ACCEPTED", "DECLINED"] },
        at: timestampSchema,
        reason: { type: ["string", "null"] },
      },
    },
    sagaInstanceId: {
      type: ["string", "null"],
      description: "The last saga run; its steps are in GET /v1/orchestration/cases/{caseUrn}/progress",
    },
    vendorErrorCode: {
      type: ["string", "null"],
      description:
        "The vendor's code that stopped the last run (FAILED, COMPENSATION_FAILED), also in `X-Vendor-Error-Code`",
    },
    updatedAt: timestampSchema,
  },
} as const;

const compensationSchema = {
  type: "object",
  required: ["subCaseUrn", "caseUrn", "correlationUrn", "status", "version"],
  properties: {
    subCaseUrn: urnSchema,
    caseUrn: urnSchema,
    correlationUrn: {
      type: "string",
      description: "Follows the compensation run; a replay of the same payload gets the first request's",
    },
    status: { type: "string", enum: SUB_CASE_STATUSES },
    version: { type: "integer", description: "The sub-case version after the request" },
  },
} as const;

const LOCK_MINUTES = LOCK_TTL_MS / 60_000;

/** Sub-case locks and compensation (spec 4.1 "Sub-cases", 3.4, 7). */
export function subCaseRoutes(actors: ActorRuntime, locks: SubCaseLocks, compensation: SubmitCompensation) {
  /** The sub-case, once the caller may act on it: same tenant (spec 5.4) and, if scoped, same airport. */
  const authorized = async (subCaseUrn: string, principal: OperatorPrincipal): Promise<SubCaseView> => {
    const subCase = await findSubCase(actors, subCaseUrn);
    assertTenant(principal, subCase.tenant);
    assertAirport(principal, subCase.airport);
    return subCase;
  };

  return [
    defineRoute({
      method: "GET",
      path: "/v1/subcases/:subCaseUrn",
      operationId: "getSubCase",
      summary: "A sub-case: its state, its offer and the passenger's answer, its last saga run",
      description:
        "When the last run stopped on a vendor's permanent error (a FAILED booking, or a COMPENSATION_FAILED " +
        "cancellation such as NON_REFUNDABLE or BOOKING_PAST_CANCELLATION_DEADLINE), the vendor's code is in " +
        "`vendorErrorCode` and in the `X-Vendor-Error-Code` header.",
      tags: ["Sub-cases"],
      access: operators,
      params: subCaseParams,
      responses: {
        200: {
          description: "The sub-case",
          schema: subCaseDetailSchema,
          headers: {
            "X-Vendor-Error-Code": {
              description: "The vendor's error code that stopped the last run, when one did",
            },
          },
        },
      },
      handler: async ({ params, principal }) => {
        const view = await authorized(params.subCaseUrn, principal);
        return {
          status: 200,
          ...(view.vendorErrorCode ? { headers: { "X-Vendor-Error-Code": view.vendorErrorCode } } : {}),
          body: {
            ...stateOf(view),
            offer: view.offer,
            answer: view.answer,
            sagaInstanceId: view.sagaInstanceId,
            vendorErrorCode: view.vendorErrorCode,
            updatedAt: view.updatedAt,
          },
        };
      },
    }),
    defineRoute({
      method: "POST",
      path: "/v1/subcases/:subCaseUrn/lock",
      operationId: "lockSubCase",
      summary: "Lock a sub-case for the caller; returns a fencing token",
      description:
        `A lock lasts ${LOCK_MINUTES} minutes. The holder renews it by locking again, which keeps the fencing ` +
        "token. Another operator gets 409 `sub-case-locked` with `lockedBy` and `expiresInSeconds`. The lock " +
        "goes on `unlock`, on expiry, about 50 ms after the holder's last connection to the real-time channel " +
        "drops, and on logout.",
      tags: ["Sub-cases"],
      access: operators,
      params: subCaseParams,
      audit: { action: "subcase.lock" },
      responses: {
        200: { description: "The caller holds the lock", schema: lockSchema },
        409: {
          description:
            "Locked by another operator (`lockedBy`, `expiresInSeconds`), or the group left the case",
        },
      },
      handler: async ({ params, principal, correlationUrn }) => {
        const subCase = await authorized(params.subCaseUrn, principal);
        const granted = await locks.lock(subCase, principal.actorUrn, correlationUrn);
        return { status: 200, body: { ...granted, caseUrn: subCase.caseUrn } };
      },
    }),
    defineRoute({
      method: "POST",
      path: "/v1/subcases/:subCaseUrn/unlock",
      operationId: "unlockSubCase",
      summary: "Release the caller's lock on a sub-case",
      description:
        "Only the holder may release, with the lock's fencing token. Releasing a lock that already expired " +
        "or went changes nothing and answers 200.",
      tags: ["Sub-cases"],
      access: operators,
      params: subCaseParams,
      body: {
        type: "object",
        required: ["fencingToken"],
        properties: { fencingToken: fencingTokenSchema },
      },
      audit: { action: "subcase.unlock" },
      responses: {
        200: { description: "The sub-case, unlocked", schema: subCaseSchema },
        409: {
          description:
            "`sub-case-locked`: another operator holds the lock; `stale-fencing-token`: the token is not the live lock's",
        },
      },
      handler: async ({ params, body, principal, correlationUrn }) => {
        const subCase = await authorized(params.subCaseUrn, principal);
        const view = await locks.unlock(subCase, principal.actorUrn, body.fencingToken, correlationUrn);
        return { status: 200, body: stateOf(view) };
      },
    }),
    defineRoute({
      method: "POST",
      path: "/v1/subcases/:subCaseUrn/compensate",
      operationId: "compensateSubCase",
      summary: "Submit compensation for a sub-case; the saga runs asynchronously",
      description:
        "Answers 202 at once with the run's `correlationUrn`; the sub-case moves to PROCESSING, " +
        "`subcase.processing` is published, and the workers schedule a saga run on that event: it confirms the stay the group holds, " +
        "takes its voucher, notifies the passenger and offers the stay (OFFER_READY), then waits for the answer " +
        "(the README's sub-case state table). `action` says what the run does: `reoffer` (the default) offers the " +
        "group's current stay again; to move the group to another hotel, move it first (a wave override, or the " +
        "review queue's `rebook` action), then compensate to offer the new stay. Compensation is refused (409) while a run " +
        "is PROCESSING and once the passenger accepted (RESOLVED). The same payload again, while that run is still the sub-case's " +
        "latest change, is a replay: 202 with the same `correlationUrn`, nothing new happens. While the sub-case " +
        "is locked the body must carry the live lock's `fencingToken`; a token of a lock that expired or went " +
        "is refused (409 `stale-fencing-token`) even when the sub-case is no longer locked. With " +
        "`expectedVersion`, a sub-case that changed since is refused (409 `version-mismatch` with " +
        "`currentVersion`). Conflicts carry the sub-case's current state in `subCase`.",
      tags: ["Sub-cases"],
      access: operators,
      params: subCaseParams,
      body: {
        type: "object",
        properties: {
          action: {
            type: "string",
            enum: COMPENSATION_ACTIONS,
            default: "reoffer",
            description: "What the saga run does: `reoffer` offers the stay the group holds now",
          },
          fencingToken: fencingTokenSchema,
          expectedVersion: { type: "integer", minimum: 1, description: "The version the caller last read" },
          reason: reasonSchema,
        },
      },
      audit: { action: "subcase.compensate" },
      responses: {
        202: { description: "Accepted (or a replay of an accepted request)", schema: compensationSchema },
        409: { description: "Locked, stale fencing token, version mismatch, or a run already in progress" },
      },
      handler: async ({ params, body, principal, correlationUrn }) => {
        const subCase = await authorized(params.subCaseUrn, principal);
        try {
          const accepted = await compensation.execute(subCase, principal.actorUrn, body, correlationUrn);
          const { replayed: _replayed, ...answer } = accepted;
          return { status: 202, body: answer };
        } catch (error) {
          throw withCurrentState(error, await findSubCase(actors, subCase.subCaseUrn));
        }
      },
    }),
  ];
}

function stateOf(view: SubCaseView) {
  return {
    subCaseUrn: view.subCaseUrn,
    caseUrn: view.caseUrn,
    groupId: view.groupId,
    status: view.status,
    version: view.version,
    lockedBy: view.lockedBy,
    lockExpiresAt: view.lockExpiresAt,
  };
}

/** Spec 7: a refused concurrent write tells the client the state to reload. */
function withCurrentState(error: unknown, current: SubCaseView): unknown {
  const refusal =
    error instanceof DomainError ? error.toShape() : DomainError.isShape(error) ? error : undefined;
  if (refusal?.kind !== "conflict") return error;
  return new DomainError(refusal.kind, refusal.code, refusal.message, {
    ...refusal.details,
    subCase: stateOf(current),
  });
}
