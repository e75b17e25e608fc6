import { admins, operators, supervisors } from "../../src/http/access.js";
import type { PolicyAdministration } from "../../src/app/policies/policy-administration.js";
import { airlineCodeOf, type PolicyIndex } from "../../src/app/policies/policy-index.js";
import { synthesizePolicy } from "../../src/app/policies/policy-synthesis.js";
import type { PolicyInput } from "../../src/domain/policy/policy.js";
import type { PolicyPatch } from "../../src/domain/policy/policy-patch.js";
import { assertAirport } from "../../src/app/authorization.js";
import { pageAnswer, pageQuery } from "../../src/http/pagination.js";
import { validationFailed } from "../../src/http/validation.js";
import { defineRoute, type HandlerInput, withFieldManualForm } from "../../src/http/route.js";
import { pageSchema } from "../../src/http/schemas/common.js";
import type { Directory } from "../../src/app/directory.js";
import {
  policyActivateBody,
  policyCreateBody,
  policyDeactivateBody,
  policyPatchBody,
  policyResolutionSchema,
  policyResolveQuery,
  policySchema,
  policySynthesisBody,
  policyUrnParams,
  policyWithVersionsSchema,
} from "./policy-schemas.js";

const tags = ["Policies"] as const;

const created = {
  201: { description: "The new DRAFT policy; it has no effect until activated", schema: policySchema },
};
const changed = { 200: { description: "The policy after the change", schema: policySchema } };
const activePage = { 200: { description: "A page of ACTIVE policies", schema: pageSchema(policySchema) } };

type Request = Pick<HandlerInput<typeof supervisors>, "principal" | "correlationUrn">;

const requestOf = ({ principal, correlationUrn }: Request, reason?: string) => ({
  principal,
  correlationUrn,
  ...(reason ? { reason } : {}),
});

/**
 * The policy routes of spec 4.1 and the field manual's unprefixed forms (4.2), which reuse the same
 * handlers, and the partner read of 4.3.
 */
export function policyRoutes(policies: PolicyAdministration, index: PolicyIndex, directory: Directory) {
  const create = async (input: Request & { body: PolicyInput & { reason?: string } }) => {
    const { reason, ...policy } = input.body;
    // The create schema states this rule with if/then, but closing the request schema against
    // unknown members closes the `if` branch too, so the rule never fires there; checked here.
    if (policy.autoApproveDemand === true && policy.maxAutomaticRoomsPerWave === undefined) {
      throw validationFailed([
        {
          in: "body",
          field: "/maxAutomaticRoomsPerWave",
          message: "is required when autoApproveDemand is true",
        },
      ]);
    }
    return { status: 201 as const, body: await policies.create(requestOf(input, reason), policy) };
  };
  const synthesize = async (input: Request & { body: { description: string } }) => {
    const organization = await directory.findOrganization(input.principal.tenant);
    const synthesized = synthesizePolicy(input.body.description, {
      airline: airlineCodeOf(input.principal.tenant),
      airports: organization?.airports.map((a) => a.code) ?? [],
    });
    const provenance = {
      source: "ai" as const,
      confidence: synthesized.confidence,
      prompt: input.body.description,
    };
    const reason = `Synthesized from a description; recognised: ${synthesized.recognised.join("; ")}`;
    return {
      status: 201 as const,
      body: await policies.create(requestOf(input, reason), { ...synthesized.input, provenance }),
    };
  };
  const activate = async (
    input: Request & { params: { policyUrn: string }; body: { reason?: string; version?: number } },
  ) => ({
    status: 200 as const,
    body: await policies.activate(
      requestOf(input, input.body.reason),
      input.params.policyUrn,
      input.body.version,
    ),
  });

  return [
    ...withFieldManualForm(
      defineRoute({
        method: "POST",
        path: "/v1/policies",
        operationId: "createPolicy",
        summary: "Create a policy as a DRAFT",
        tags,
        access: supervisors,
        body: policyCreateBody,
        responses: created,
        handler: (input) => create({ ...input, body: input.body as PolicyInput & { reason?: string } }),
      }),
      {
        path: "/policies",
        operationId: "createPolicyFieldManual",
        summary: "Create a policy as a DRAFT (field-manual form of POST /v1/policies)",
      },
    ),
    ...withFieldManualForm(
      defineRoute({
        method: "POST",
        path: "/v1/policies/generate-ai",
        operationId: "generatePolicy",
        summary: "Draft a policy from a plain-language description",
        description:
          "Rule-based: a fixed set of phrase rules (stars, distance, nightly rate, amenities, airport codes, tiers, approval limits) reads the description; no language model is involved. The result is a DRAFT carrying provenance {source: ai, confidence, prompt}; a supervisor reviews and activates it.",
        tags,
        access: supervisors,
        body: policySynthesisBody,
        responses: created,
        handler: synthesize,
      }),
      {
        path: "/policies/synthesize",
        operationId: "synthesizePolicy",
        summary: "Draft a policy from a plain-language description (field-manual form of generate-ai)",
        description: "Rule-based, as POST /v1/policies/generate-ai.",
      },
    ),
    defineRoute({
      method: "GET",
      path: "/v1/policies/active",
      operationId: "listActivePolicies",
      summary: "ACTIVE policies of the caller's airline",
      description: "An airport-scoped operator sees its airport's policies and those for every airport.",
      tags,
      access: operators,
      query: pageQuery(),
      responses: activePage,
      handler: ({ principal, query }) =>
        pageAnswer(query, (request) => index.activePage(principal.tenant, principal.airport, request)),
    }),
    defineRoute({
      method: "GET",
      path: "/v1/policies/resolve",
      operationId: "resolvePolicy",
      summary: "Preview the policy a case at an airport and tier would use",
      description:
        "The most specific ACTIVE policy of the caller's airline: an exact airport beats every airport, a policy listing the tier beats one for every tier, then the exact airline.",
      tags,
      access: operators,
      query: policyResolveQuery,
      responses: { 200: { description: "The policy that applies, or null", schema: policyResolutionSchema } },
      handler: async ({ principal, query }) => {
        assertAirport(principal, query.airport);
        const policy = await index.resolve(principal.tenant, query);
        return {
          status: 200,
          body: { ...query, airline: airlineCodeOf(principal.tenant), policy: policy ?? null },
        };
      },
    }),
    defineRoute({
      method: "GET",
      path: "/v1/policies/:policyUrn",
      operationId: "getPolicy",
      summary: "A policy in any state, with every version",
      tags,
      access: operators,
      params: policyUrnParams,
      responses: { 200: { description: "The policy and its versions", schema: policyWithVersionsSchema } },
      handler: async ({ principal, params }) => {
        const { current, versions } = await policies.get(principal, params.policyUrn);
        return { status: 200, body: { ...current, versions } };
      },
    }),
    defineRoute({
      method: "POST",
      path: "/v1/policies/:policyUrn/patch",
      operationId: "patchPolicy",
      summary: "Change a policy's rules; bumps its version",
      description:
        "Objects merge one level deep, arrays replace, null removes an optional constraint. The context (airport, airline, tier set) cannot change. " +
        "With `expectedVersion` (the version the caller read), a policy changed since is refused with 409 `version-mismatch` and its `currentVersion`.",
      tags,
      access: supervisors,
      params: policyUrnParams,
      body: policyPatchBody,
      responses: changed,
      handler: async (input) => ({
        status: 200,
        body: await policies.patch(
          requestOf(input, input.body.reason),
          input.params.policyUrn,
          input.body as PolicyPatch,
        ),
      }),
    }),
    ...withFieldManualForm(
      defineRoute({
        method: "POST",
        path: "/v1/policies/:policyUrn/activate",
        operationId: "activatePolicy",
        summary:
          "Activate a DRAFT or ARCHIVED policy (rollback); archives the context's previous one atomically",
        tags,
        access: admins,
        params: policyUrnParams,
        body: policyActivateBody,
        responses: changed,
        handler: activate,
      }),
      {
        path: "/policies/:policyUrn/activate",
        operationId: "activatePolicyFieldManual",
        summary: "Activate a policy (field-manual form of POST /v1/policies/{urn}/activate)",
      },
    ),
    defineRoute({
      method: "POST",
      path: "/v1/policies/:policyUrn/deactivate",
      operationId: "deactivatePolicy",
      summary: "Archive an ACTIVE policy",
      tags,
      access: admins,
      params: policyUrnParams,
      body: policyDeactivateBody,
      responses: changed,
      handler: async (input) => ({
        status: 200,
        body: await policies.deactivate(requestOf(input, input.body.reason), input.params.policyUrn),
      }),
    }),
    defineRoute({
      method: "GET",
      path: "/partner/v1/policies",
      operationId: "listPartnerPolicies",
      summary: "ACTIVE policies of the registration's airline",
      tags,
      access: { kind: "partner", scope: "policies.read" },
      query: pageQuery(),
      responses: activePage,
      handler: ({ principal, query }) =>
        pageAnswer(query, (request) => index.activePage(principal.tenant, undefined, request)),
    }),
  ];
}
