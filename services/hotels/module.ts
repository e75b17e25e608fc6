import type { ServiceModule } from "../module.js";

/** Hotels, vendors, search and allocation waves. */
export const hotelsModule: ServiceModule = {
  name: "hotels",
};
