import { CaseEntitlements } from "../../src/app/cases/case-entitlements.js";
import { type DependencyContainer, instanceCachingFactory } from "tsyringe";
import { latestWavePartOf } from "../../src/app/allocation/wave-documents.js";
import { CaseChanges } from "../../src/app/cases/case-changes.js";
import { CaseDashboard } from "../../src/app/cases/case-dashboard.js";
import { CaseFulfilmentReader } from "../../src/app/cases/case-fulfilment.js";
import { CasePriorityRequests } from "../../src/app/cases/case-priority.js";
import { CaseProjection } from "../../src/app/cases/case-projection.js";
import { CaseReads, type LatestWaveLookup } from "../../src/app/cases/case-reads.js";
import { CaseStatusCommands } from "../../src/app/cases/case-status.js";
import { DisruptionIntake } from "../../src/app/cases/intake.js";
import { DrillCases } from "../../src/app/cases/drill-cases.js";
import { Drills } from "../../src/app/cases/drills.js";
import { ShadowCases } from "../../src/app/metrics/shadow-cases.js";
import { ManifestCommands } from "../../src/app/cases/manifest-commands.js";
import { Reaccommodation } from "../../src/app/cases/reaccommodation.js";
import type { DocumentStore } from "../../src/runtime/document-store.js";
import { TOKENS } from "../../src/runtime/tokens.js";
import { registerSingletons } from "../module.js";

/** The case lifecycle's use cases, as its routes and event handlers receive them. */
export interface CaseUseCases {
  intake: DisruptionIntake;
  status: CaseStatusCommands;
  manifest: ManifestCommands;
  reaccommodation: Reaccommodation;
  reads: CaseReads;
  dashboard: CaseDashboard;
  changes: CaseChanges;
  projection: CaseProjection;
  priority: CasePriorityRequests;
  drills: Drills;
}

export function registerCaseUseCases(container: DependencyContainer): void {
  container.register<LatestWaveLookup>(TOKENS.latestWave, {
    useFactory: instanceCachingFactory((c) => {
      const documents = c.resolve<DocumentStore>(TOKENS.documents);
      // The case detail shows the wave's allocations and totals, not its hotels and ranking inputs.
      return (tenant: string, caseUrn: string) =>
        latestWavePartOf(documents, tenant, caseUrn, ["allocations", "totalCost", "savingsVsMarket"]);
    }),
  });
  registerSingletons(container, [
    CaseProjection,
    CaseChanges,
    DisruptionIntake,
    CaseStatusCommands,
    ManifestCommands,
    CaseReads,
    CaseDashboard,
    CaseFulfilmentReader,
    Reaccommodation,
    CasePriorityRequests,
    CaseEntitlements,
    DrillCases,
    Drills,
    ShadowCases,
  ]);
}

/** The instances registered in `container` by `registerCaseUseCases`. */
export function caseUseCases(container: DependencyContainer): CaseUseCases {
  return {
    intake: container.resolve(DisruptionIntake),
    status: container.resolve(CaseStatusCommands),
    manifest: container.resolve(ManifestCommands),
    reaccommodation: container.resolve(Reaccommodation),
    reads: container.resolve(CaseReads),
    dashboard: container.resolve(CaseDashboard),
    changes: container.resolve(CaseChanges),
    projection: container.resolve(CaseProjection),
    priority: container.resolve(CasePriorityRequests),
    drills: container.resolve(Drills),
  };
}
