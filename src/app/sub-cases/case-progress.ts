import { CaseActor } from "../../../actors/CaseActor.js";
import { SubCaseActor, subCaseActorIdFor } from "../../../actors/SubCaseActor.js";
import { caseNotFound } from "../../domain/case.js";
import type { SubCaseStatus } from "../../domain/sub-case.js";
import type { ActorRuntime } from "../../runtime/actor-runtime.js";
import { TERMINAL_STATUSES, type WorkflowEngine, type WorkflowState } from "../../runtime/workflow-engine.js";
import type { SagaStepProgress, SubCaseSagaProgress } from "../../workflows/sub-case-saga/model.js";
import { assertAirport, assertTenant } from "../authorization.js";
import { caseRefOf } from "../cases/case-changes.js";
import type { OperatorPrincipal } from "../principals.js";
import { inject, injectable } from "tsyringe";
import { TOKENS } from "../../runtime/tokens.js";

/** One sub-case's last saga run, as the operators follow it. */
export interface SagaRunProgress {
  instanceId: string;
  runtimeStatus: WorkflowState["runtimeStatus"];
  phase: SubCaseSagaProgress["phase"] | null;
  startedAt: string;
  /** When the run ended; null while it runs or waits. */
  endedAt: string | null;
  answerBy: string | null;
  lastError: string | null;
  steps: SagaStepProgress[];
}

export interface SubCaseProgress {
  subCaseUrn: string;
  groupId: string;
  status: SubCaseStatus;
  vendorErrorCode: string | null;
  /** Null while no run was started for the sub-case (its group's stay is not confirmed yet). */
  saga: SagaRunProgress | null;
}

export interface CaseProgress {
  caseUrn: string;
  subCases: SubCaseProgress[];
}

/**
 * Every sub-case's saga of a case (spec 4.1 GET /v1/orchestration/cases/{urn}/progress): the
 * sub-case from its actor, its last run from the workflow engine, whose custom status the run
 * keeps with its steps, their times and errors. Scoped like every case read: same tenant, and
 * the operator's airport when scoped.
 */
@injectable()
export class CaseProgressReads {
  constructor(
    @inject(TOKENS.actors) private readonly actors: ActorRuntime,
    @inject(TOKENS.workflows) private readonly workflows: WorkflowEngine,
  ) {}

  async of(caller: OperatorPrincipal, caseUrn: string): Promise<CaseProgress> {
    const ref = caseRefOf(caseUrn);
    const outline = await this.actors.invoke(CaseActor, ref.id, "outline");
    if (!outline) throw caseNotFound(ref.id);
    assertTenant(caller, outline.tenant);
    assertAirport(caller, outline.airport);
    const subCases = await Promise.all(
      outline.groupIds.map(async (groupId): Promise<SubCaseProgress | undefined> => {
        const view = await this.actors.invoke(SubCaseActor, subCaseActorIdFor(outline.urn, groupId), "get");
        if (!view || view.retiredAt) return undefined;
        const state = view.sagaInstanceId ? await this.workflows.get(view.sagaInstanceId) : undefined;
        return {
          subCaseUrn: view.subCaseUrn,
          groupId: view.groupId,
          status: view.status,
          vendorErrorCode: view.vendorErrorCode,
          saga: state ? runOf(state) : null,
        };
      }),
    );
    return { caseUrn: outline.urn, subCases: subCases.filter((s): s is SubCaseProgress => s !== undefined) };
  }
}

function runOf(state: WorkflowState): SagaRunProgress {
  const progress =
    typeof state.customStatus === "string" && state.customStatus !== ""
      ? (JSON.parse(state.customStatus) as SubCaseSagaProgress)
      : undefined;
  const ended = TERMINAL_STATUSES.has(state.runtimeStatus);
  return {
    instanceId: state.instanceId,
    runtimeStatus: state.runtimeStatus,
    phase: progress?.phase ?? null,
    startedAt: state.createdAt,
    endedAt: ended ? state.lastUpdatedAt : null,
    answerBy: progress?.answerBy ?? null,
    lastError: progress?.lastError ?? state.failure?.message ?? null,
    steps: progress?.steps ?? [],
  };
}
