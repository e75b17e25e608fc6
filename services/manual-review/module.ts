import { AgentActionActor } from "../../actors/AgentActionActor.js";
import { ReviewItemActor } from "../../actors/ReviewItemActor.js";
import { ReviewQueueIndex } from "../../src/app/manual-review/review-queue-index.js";
import type { ServiceModule } from "../module.js";
import { agentRoutes } from "./agent-routes.js";
import { manualReviewRoutes } from "./review-routes.js";
import { registerReviewUseCases, reviewUseCases } from "./review-use-cases.js";
import { manualReviewSubscriptions } from "./review-subscriptions.js";

/**
 * The manual-review queue: one actor per item, the queue routes and the events that feed it; and
 * the exception agent working it (one actor per proposal, the /v1/agent routes).
 */
export const manualReviewModule: ServiceModule = {
  name: "manual-review",
  actorTypes: [ReviewItemActor, AgentActionActor],
  register: registerReviewUseCases,
  subscriptions: (context, tenants) => ({ workers: manualReviewSubscriptions(context, tenants) }),
  routes: ({ container }) => {
    const review = reviewUseCases(container);
    return [...manualReviewRoutes(review), ...agentRoutes(review.triage, review.decisions)];
  },
  start: ({ container }) => container.resolve(ReviewQueueIndex).ensureIndexes(),
};
