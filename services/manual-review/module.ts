import { ReviewItemActor } from "../../actors/ReviewItemActor.js";
import { ReviewQueueIndex } from "../../src/app/manual-review/review-queue-index.js";
import type { ServiceModule } from "../module.js";
import { manualReviewRoutes } from "./review-routes.js";
import { registerReviewUseCases, reviewUseCases } from "./review-use-cases.js";
import { manualReviewSubscriptions } from "./review-subscriptions.js";

/** The manual-review queue: one actor per item, the queue routes and the events that feed it. */
export const manualReviewModule: ServiceModule = {
  name: "manual-review",
  actorTypes: [ReviewItemActor],
  register: registerReviewUseCases,
  subscriptions: (context, tenants) => ({ workers: manualReviewSubscriptions(context, tenants) }),
  routes: ({ container }) => manualReviewRoutes(reviewUseCases(container)),
  start: ({ container }) => container.resolve(ReviewQueueIndex).ensureIndexes(),
};
