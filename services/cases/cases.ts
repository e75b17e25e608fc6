import { CaseChanges } from "../../src/app/cases/case-changes.js";
import { CaseDashboard } from "../../src/app/cases/case-dashboard.js";
import { CaseProjection } from "../../src/app/cases/case-projection.js";
import { CaseReads } from "../../src/app/cases/case-reads.js";
import { CaseStatusCommands } from "../../src/app/cases/case-status.js";
import { DisruptionIntake } from "../../src/app/cases/intake.js";
import { ManifestCommands } from "../../src/app/cases/manifest-commands.js";
import { Reaccommodation } from "../../src/app/cases/reaccommodation.js";
import { PolicyIndex } from "../../src/app/policies/policy-index.js";
import { DocumentPassengerDirectory } from "../../src/passenger-identity/document-passenger-directory.js";
import type { ModuleContext } from "../module.js";

/** The case lifecycle's use cases, built once per running platform. */
export interface Cases {
  intake: DisruptionIntake;
  status: CaseStatusCommands;
  manifest: ManifestCommands;
  reaccommodation: Reaccommodation;
  reads: CaseReads;
  dashboard: CaseDashboard;
  changes: CaseChanges;
  projection: CaseProjection;
}

const built = new WeakMap<ModuleContext, Cases>();

/** The same instances for the routes and the event handlers of one platform. */
export function casesOf(context: ModuleContext): Cases {
  let cases = built.get(context);
  if (!cases) {
    cases = build(context);
    built.set(context, cases);
  }
  return cases;
}

function build({ runtime, audit, passengers }: ModuleContext): Cases {
  const { actors, documents, clock } = runtime;
  const logins = passengers.directory;
  if (!(logins instanceof DocumentPassengerDirectory)) {
    throw new Error(
      "The case lifecycle writes passenger logins: the passenger directory must be a DocumentPassengerDirectory",
    );
  }
  const projection = new CaseProjection({ documents, logins, revocations: passengers.revocations });
  const changes = new CaseChanges(actors, projection, audit);
  const policies = new PolicyIndex(documents);
  return {
    intake: new DisruptionIntake(actors, changes),
    status: new CaseStatusCommands(actors, changes, audit),
    manifest: new ManifestCommands(actors, changes),
    reaccommodation: new Reaccommodation(
      actors,
      changes,
      async (tenant, airport) => (await policies.resolve(tenant, { airport }))?.buffers,
    ),
    reads: new CaseReads(changes, documents),
    dashboard: new CaseDashboard(documents, clock),
    changes,
    projection,
  };
}
