import { DemandActor } from "../../actors/DemandActor.js";
import { CaseFulfilmentReader } from "../../src/app/cases/case-fulfilment.js";
import { DemandAdministration } from "../../src/app/demand/demand-administration.js";
import { DemandIndex } from "../../src/app/demand/demand-index.js";
import { CaseDemandSummary } from "../../src/app/demand/demand-summary.js";
import { PolicyIndex } from "../../src/app/policies/policy-index.js";
import type { ServiceModule } from "../module.js";
import { demandRoutes } from "./demand-routes.js";

/** Room demand and its approval: one actor per case, the `demands` index and the demand routes. */
export const demandModule: ServiceModule = {
  name: "demand",
  actorTypes: [DemandActor],
  routes: ({ runtime, audit }) => {
    const index = new DemandIndex(runtime.documents);
    const administration = new DemandAdministration(
      runtime.actors,
      new PolicyIndex(runtime.documents),
      index,
      audit,
    );
    const summaries = new CaseDemandSummary(runtime.actors, new CaseFulfilmentReader(runtime.documents));
    return demandRoutes(administration, summaries, index);
  },
};
