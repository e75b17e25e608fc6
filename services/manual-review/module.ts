import { ReviewItemActor } from "../../actors/ReviewItemActor.js";
import type { ServiceModule } from "../module.js";
import { manualReviewOf } from "./manual-review.js";
import { manualReviewRoutes } from "./review-routes.js";
import { manualReviewSubscriptions } from "./subscriptions.js";

/** The manual-review queue: one actor per item, the queue routes and the events that feed it. */
export const manualReviewModule: ServiceModule = {
  name: "manual-review",
  actorTypes: [ReviewItemActor],
  subscriptions: (context, tenants) => manualReviewSubscriptions(context, tenants),
  routes: (context) => manualReviewRoutes(manualReviewOf(context)),
  start: (context) => manualReviewOf(context).index.ensureIndexes(),
};
