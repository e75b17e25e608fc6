import { supervisors } from "../../src/http/access.js";
import type { WaveRequest, WaveResult } from "../../src/app/allocation/allocation-waves.js";
import { waveView } from "../../src/app/allocation/wave-documents.js";
import { compose } from "../../src/app/cases/case-dashboard.js";
import { demandAddress } from "../../src/domain/demand-addresses.js";
import { DomainError } from "../../src/domain/domain-error.js";
import type { OperatorPrincipal } from "../../src/app/principals.js";
import { type AuditSubject, defineRoute, withFieldManualForm } from "../../src/http/route.js";
import { urnOf } from "../../src/http/schemas/common.js";
import type { Clock } from "../../src/runtime/clock.js";
import { canonicalCaseUrn } from "../cases/operator-routes.js";
import type { AllocationUseCases } from "./allocation-use-cases.js";
import {
  allocateBody,
  allocationResultSchema,
  caseAllocationSchema,
  overrideBody,
  rerunBody,
  waveSchema,
  waveUrnParams,
} from "./wave-schemas.js";

const readers = { kind: "operator", anyOf: ["AIRPORT_OPERATOR", "FINANCE_AUDIT"] } as const;
const tags = ["Allocation"] as const;

type Request = { principal: OperatorPrincipal; correlationUrn: string };

function resultView(result: WaveResult) {
  switch (result.outcome) {
    case "completed":
      return {
        outcome: "WAVE_COMPLETED" as const,
        caseUrn: result.wave.caseUrn,
        waveUrn: result.wave.urn,
        wave: waveView(result.wave),
      };
    case "manual-review":
      return {
        outcome: "MANUAL_REVIEW" as const,
        caseUrn: result.caseUrn,
        waveUrn: null,
        reason: result.reason,
      };
    case "already-handled":
      return {
        outcome: "ALREADY_HANDLED" as const,
        caseUrn: result.caseUrn,
        waveUrn: result.handledBy.startsWith("urn:wave:") ? result.handledBy : null,
      };
  }
}

/** A completed wave is created (201); a case sent to manual review is not (200). */
function answer(result: WaveResult) {
  const body = resultView(result);
  return result.outcome === "completed" ? { status: 201 as const, body } : { status: 200 as const, body };
}

/** Audit entries of allocation writes name the wave (when one was made) and the case. */
const auditAllocation = (action: string): AuditSubject => ({
  action,
  subject: (_input, response) => {
    const body = (response.body ?? {}) as {
      waveUrn?: unknown;
      caseUrn?: unknown;
      allocation?: { waveUrn?: unknown };
    };
    const waveUrn = body.waveUrn ?? body.allocation?.waveUrn;
    return {
      entityUrn:
        typeof waveUrn === "string" ? waveUrn : typeof body.caseUrn === "string" ? body.caseUrn : null,
      caseUrn: typeof body.caseUrn === "string" ? body.caseUrn : null,
    };
  },
});

const auditWave = (action: string): AuditSubject => ({
  action,
  subject: ({ params }, response) => ({
    entityUrn: String((params as { waveUrn: string }).waveUrn),
    caseUrn: ((response.body ?? {}) as { caseUrn?: string }).caseUrn ?? null,
  }),
});

/** The allocation routes of spec 4.1 (allocate) and their wave routes of 4.2, with /v1 forms. */
export function allocationRoutes(allocation: AllocationUseCases, clock: Clock) {
  const manual = (request: Request, caseUrn: string, demandUrn?: string): WaveRequest => ({
    caseUrn,
    ...(demandUrn ? { demandUrn } : {}),
    trigger: { kind: "manual", by: request.principal.actorUrn },
    principal: request.principal,
    correlationUrn: request.correlationUrn,
  });

  const allocateCase = async (input: Request & { params: { caseUrn: string } }) => {
    const request = manual(input, input.params.caseUrn);
    await allocation.waves.admissible(request);
    const { parts, partialFailures } = await compose(
      { allocation: () => allocation.waves.run(request) },
      clock,
    );
    const result = parts.allocation;
    const vendors =
      result?.outcome === "completed"
        ? result.wave.vendorsMissing.map((missing) => ({
            domain: `inventory:${missing.vendor}`,
            reason: missing.vendorErrorCode
              ? `${missing.reason} (${missing.vendorErrorCode})`
              : missing.reason,
          }))
        : [];
    return {
      status: 200 as const,
      body: {
        caseUrn: canonicalCaseUrn(input.params.caseUrn),
        allocation: result ? resultView(result) : null,
        partialFailures: [...partialFailures, ...vendors],
      },
    };
  };

  const allocate = async (input: Request & { body: { caseUrn?: string; demandUrn?: string } }) => {
    const { caseUrn, demandUrn } = input.body;
    if (demandUrn) {
      const address = demandAddress(demandUrn);
      if (!address) throw new DomainError("not-found", "demand", `No demand ${demandUrn}`);
      return answer(await allocation.waves.run(manual(input, `urn:case:${address.caseId}`, demandUrn)));
    }
    return answer(await allocation.waves.run(manual(input, caseUrn!)));
  };

  const getWave = async ({ principal, params }: Request & { params: { waveUrn: string } }) => ({
    status: 200 as const,
    body: waveView(await allocation.reads.get(principal, params.waveUrn)),
  });

  const override = async (
    input: Request & {
      params: { waveUrn: string };
      body: { groupId: string; hotelUrn: string; reason: string };
    },
  ) => ({
    status: 200 as const,
    body: waveView(
      await allocation.overrides.override(input.params.waveUrn, {
        principal: input.principal,
        correlationUrn: input.correlationUrn,
        ...input.body,
      }),
    ),
  });

  const rerun = async (input: Request & { params: { waveUrn: string } }) => {
    const wave = await allocation.reads.get(input.principal, input.params.waveUrn);
    return answer(
      await allocation.waves.run({
        ...manual(input, wave.caseUrn, wave.demandUrn ?? undefined),
        trigger: { kind: "rerun", by: input.principal.actorUrn, rerunOf: wave.urn },
      }),
    );
  };

  return [
    defineRoute({
      method: "POST",
      path: "/v1/cases/:caseUrn/allocate",
      operationId: "allocateCase",
      summary: "Allocate hotels to the case's groups (composition route)",
      description:
        "Validates first (the case exists, is not closed, the caller may act on it, and it has approved demand), " +
        "then dispatches to allocation with a 3 s timeout. A sub-call that fails or runs out of time is named in " +
        "partialFailures (a wave still running completes on its own), as is every vendor that did not answer " +
        "the search (inventory:<vendor>). No booking follows by itself: POST /v1/cases/{urn}/book-rooms.",
      tags,
      access: supervisors,
      params: { type: "object", properties: { caseUrn: urnOf("case") } },
      audit: auditAllocation("allocation.allocate-case"),
      responses: {
        200: { description: "The allocation and any partial failures", schema: caseAllocationSchema },
      },
      handler: allocateCase,
    }),
    defineRoute({
      method: "POST",
      path: "/v1/allocation/allocate",
      operationId: "allocate",
      summary: "Run an allocation wave for a case or an approved demand",
      description:
        "With caseUrn, for the case's latest approved demand. A case with no matching policy goes to manual " +
        "review with a POLICY_VIOLATION item and no wave is written (200, MANUAL_REVIEW).",
      tags,
      access: supervisors,
      body: allocateBody,
      audit: auditAllocation("allocation.allocate"),
      responses: {
        201: { description: "The completed wave", schema: allocationResultSchema },
        200: {
          description: "No policy matched: the case went to manual review",
          schema: allocationResultSchema,
        },
      },
      handler: allocate,
    }),
    ...withFieldManualForm(
      defineRoute({
        method: "GET",
        path: "/v1/allocation/wave/:waveUrn",
        operationId: "getWave",
        summary: "An allocation wave with its rankingInputs and allocations",
        tags,
        access: readers,
        params: waveUrnParams,
        responses: { 200: { description: "The wave", schema: waveSchema } },
        handler: getWave,
      }),
      { path: "/allocation/wave/:waveUrn", operationId: "getWaveFieldManual" },
    ),
    ...withFieldManualForm(
      defineRoute({
        method: "POST",
        path: "/v1/allocation/wave/:waveUrn/override",
        operationId: "overrideWaveGroup",
        summary: "Move one group of a wave to another hotel the wave considered",
        description:
          "Only that group changes; the wave's other allocations are untouched. The chosen hotel's cheapest offer " +
          "with rooms left is used, even one the policy's gates discarded (recorded in gatesOverridden). Audited " +
          "with before/after; emits allocation.group-overridden, on which booking re-books that group alone.",
        tags,
        access: supervisors,
        params: waveUrnParams,
        body: overrideBody,
        audit: auditWave("allocation.override-requested"),
        responses: { 200: { description: "The wave after the override", schema: waveSchema } },
        handler: override,
      }),
      { path: "/allocation/wave/:waveUrn/override", operationId: "overrideWaveGroupFieldManual" },
    ),
    ...withFieldManualForm(
      defineRoute({
        method: "POST",
        path: "/v1/allocation/wave/:waveUrn/rerun",
        operationId: "rerunWave",
        summary: "Run the wave's case again (a new wave, searching the vendors anew)",
        tags,
        access: supervisors,
        params: waveUrnParams,
        body: rerunBody,
        audit: auditWave("allocation.rerun"),
        responses: {
          201: { description: "The new wave", schema: allocationResultSchema },
          200: {
            description: "No policy matched any more: the case went to manual review",
            schema: allocationResultSchema,
          },
        },
        handler: rerun,
      }),
      { path: "/allocation/wave/:waveUrn/rerun", operationId: "rerunWaveFieldManual" },
    ),
  ];
}
