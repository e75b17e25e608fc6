import { CaseActor, type CaseSnapshot } from "../../../actors/CaseActor.js";
import type { CaseRecord } from "../../domain/case.js";
import type { DeepReadonly } from "../../domain/deep-readonly.js";
import { DomainError } from "../../domain/domain-error.js";
import type { OperatorPrincipal, Principal } from "../principals.js";
import { assertAirport, assertTenant } from "../authorization.js";
import type { ActorRuntime } from "../../runtime/actor-runtime.js";
import { caseIdOf } from "../../domain/demand-addresses.js";

/**
 * The case a demand request names, read from its CaseActor: 404 when there is no such case, 403
 * when it belongs to another airline or, for an airport-scoped operator, another airport.
 */
export async function caseFor(
  actors: ActorRuntime,
  principal: OperatorPrincipal,
  caseUrn: string,
  notFound = () => new DomainError("not-found", "case", `No case ${caseUrn}`),
): Promise<CaseRecord> {
  const caseId = caseIdOf(caseUrn);
  const record = caseId ? await actors.invoke(CaseActor, caseId, "get") : undefined;
  if (!record) throw notFound();
  assertCaseAccess(principal, record);
  return record;
}

/** The whole case aggregate (reservations included), with the same checks as `caseFor`. */
export async function caseSnapshotFor(
  actors: ActorRuntime,
  principal: OperatorPrincipal,
  caseUrn: string,
): Promise<CaseSnapshot> {
  const caseId = caseIdOf(caseUrn);
  const snapshot = caseId ? await actors.look(CaseActor, caseId, "snapshot") : undefined;
  if (!snapshot) throw new DomainError("not-found", "case", `No case ${caseUrn}`);
  assertCaseAccess(principal, snapshot.case);
  return snapshot;
}

/** Spec 5.4 and 4.2: the caller's tenant, and for an airport-scoped operator its airport. */
export function assertCaseAccess(
  caller: Principal,
  record: DeepReadonly<Pick<CaseRecord, "tenant" | "flight">>,
): void {
  assertTenant(caller, record.tenant);
  if (caller.surface === "operator") assertAirport(caller, record.flight.origin);
}
