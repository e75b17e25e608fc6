import type { ServiceModule } from "../module.js";

/** Sub-cases and their operator locks. */
export const subCasesModule: ServiceModule = {
  name: "sub-cases",
};
