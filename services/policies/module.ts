import { PolicyContextActor } from "../../actors/PolicyContextActor.js";
import { PolicyAdministration } from "../../src/app/policies/policy-administration.js";
import { PolicyIndex } from "../../src/app/policies/policy-index.js";
import { registerSingletons, type ServiceModule } from "../module.js";
import { policyRoutes } from "./policy-routes.js";

/** Airline hotel policies: one actor per policy context, a query index, and the policy routes. */
export const policiesModule: ServiceModule = {
  name: "policies",
  actorTypes: [PolicyContextActor],
  register: (container) => registerSingletons(container, [PolicyIndex, PolicyAdministration]),
  routes: ({ container, directory }) =>
    policyRoutes(container.resolve(PolicyAdministration), container.resolve(PolicyIndex), directory),
};
