import type { ServiceModule } from "../module.js";

/** The manual-review queue. */
export const manualReviewModule: ServiceModule = {
  name: "manual-review",
};
