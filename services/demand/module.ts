import type { ServiceModule } from "../module.js";

/** Room demand and its approval. */
export const demandModule: ServiceModule = {
  name: "demand",
};
