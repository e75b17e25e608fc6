import { PolicyContextActor } from "../../actors/PolicyContextActor.js";
import { PolicyAdministration } from "../../src/app/policies/policy-administration.js";
import { PolicyIndex } from "../../src/app/policies/policy-index.js";
import type { ServiceModule } from "../module.js";
import { policyRoutes } from "./policy-routes.js";

/** Airline hotel policies: one actor per policy context, a query index, and the policy routes. */
export const policiesModule: ServiceModule = {
  name: "policies",
  actorTypes: [PolicyContextActor],
  routes: ({ runtime, audit, directory }) => {
    const index = new PolicyIndex(runtime.documents);
    return policyRoutes(new PolicyAdministration(runtime.actors, index, audit), index, directory);
  },
};
