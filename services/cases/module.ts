import { CaseActor } from "../../actors/CaseActor.js";
import type { ServiceModule } from "../module.js";

/** Disruption intake and the case lifecycle. */
export const casesModule: ServiceModule = {
  name: "cases",
  actorTypes: [CaseActor],
};
