import type { CaseProgressReads } from "../../src/app/sub-cases/case-progress.js";
import { SUB_CASE_STATUSES } from "../../src/domain/sub-case.js";
import { defineRoute } from "../../src/http/route.js";
import { caseUrnParams, timestampSchema, urnSchema } from "../../src/http/schemas/common.js";

const nullableTime = { type: ["string", "null"], format: "date-time" } as const;

const stepSchema = {
  type: "object",
  required: ["name", "state", "startedAt", "endedAt", "error"],
  properties: {
    name: {
      type: "string",
      description: "confirm-stay, issue-voucher, notify-passenger; `undo-<step>` for a rollback",
    },
    state: { type: "string", enum: ["RUNNING", "COMPLETED", "FAILED", "UNDONE"] },
    startedAt: timestampSchema,
    endedAt: nullableTime,
    error: { type: ["string", "null"] },
  },
} as const;

const progressSchema = {
  type: "object",
  required: ["caseUrn", "subCases"],
  properties: {
    caseUrn: urnSchema,
    subCases: {
      type: "array",
      items: {
        type: "object",
        required: ["subCaseUrn", "groupId", "status", "vendorErrorCode", "saga"],
        properties: {
          subCaseUrn: urnSchema,
          groupId: { type: "string" },
          status: { type: "string", enum: SUB_CASE_STATUSES },
          vendorErrorCode: { type: ["string", "null"] },
          saga: {
            type: ["object", "null"],
            description: "The sub-case's last saga run; null until one started",
            required: [
              "instanceId",
              "runtimeStatus",
              "phase",
              "startedAt",
              "endedAt",
              "answerBy",
              "lastError",
              "steps",
            ],
            properties: {
              instanceId: { type: "string" },
              runtimeStatus: {
                type: "string",
                description: "The workflow engine's: RUNNING, COMPLETED, FAILED...",
              },
              phase: {
                type: ["string", "null"],
                enum: ["starting", "working", "awaiting-answer", "rolling-back", "ended", null],
              },
              startedAt: timestampSchema,
              endedAt: nullableTime,
              answerBy: { ...nullableTime, description: "The offer's deadline" },
              lastError: { type: ["string", "null"] },
              steps: { type: "array", items: stepSchema },
            },
          },
        },
      },
    },
  },
} as const;

/** Spec 4.1 orchestration: every sub-case's saga of a case. */
export function progressRoutes(progress: CaseProgressReads) {
  return [
    defineRoute({
      method: "GET",
      path: "/v1/orchestration/cases/:caseUrn/progress",
      operationId: "getCaseProgress",
      summary: "Every sub-case's saga of a case: its steps, state, start and end times, last error",
      description:
        "One entry per passenger group's sub-case, in group order, with the sub-case's state and its last saga " +
        "run: the run's steps in the order they ran (a decline adds the `undo-` steps of its rollback), when each " +
        "started and ended, the offer's deadline and the last error. The same steps reach the operator WebSocket " +
        "as graph:step:started and graph:step:completed.",
      tags: ["Orchestration"],
      access: { kind: "operator", anyOf: ["AIRPORT_OPERATOR"], airportScoped: true },
      params: caseUrnParams,
      responses: { 200: { description: "The case's sagas", schema: progressSchema } },
      handler: async ({ params, principal }) => ({
        status: 200,
        body: await progress.of(principal, params.caseUrn),
      }),
    }),
  ];
}
