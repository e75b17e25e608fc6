import type { ServiceModule } from "../module.js";

/** Airline hotel policies. */
export const policiesModule: ServiceModule = {
  name: "policies",
};
