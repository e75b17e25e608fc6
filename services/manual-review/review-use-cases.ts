import type { DependencyContainer } from "tsyringe";
import { AgentActionDecisions } from "../../src/app/manual-review/agent-action-decisions.js";
import { AgentTriage } from "../../src/app/manual-review/agent-triage.js";
import { CaseReturn } from "../../src/app/manual-review/case-return.js";
import { ExceptionAgent } from "../../src/app/manual-review/exception-agent.js";
import { PolicyOverrides } from "../../src/app/policies/policy-overrides.js";
import { ReviewActions } from "../../src/app/manual-review/review-actions.js";
import { ReviewIntake } from "../../src/app/manual-review/review-intake.js";
import { ReviewItemChanges } from "../../src/app/manual-review/review-item-changes.js";
import { ReviewItemFollowUp } from "../../src/app/manual-review/review-item-follow-up.js";
import { ReviewQueueIndex } from "../../src/app/manual-review/review-queue-index.js";
import { registerSingletons } from "../module.js";

/** The manual-review queue's use cases, as its routes and event handlers receive them. */
export interface ReviewUseCases {
  index: ReviewQueueIndex;
  changes: ReviewItemChanges;
  actions: ReviewActions;
  intake: ReviewIntake;
  followUp: ReviewItemFollowUp;
  overrides: PolicyOverrides;
  agent: ExceptionAgent;
  triage: AgentTriage;
  decisions: AgentActionDecisions;
}

export function registerReviewUseCases(container: DependencyContainer): void {
  registerSingletons(container, [
    ReviewQueueIndex,
    ReviewItemChanges,
    PolicyOverrides,
    ExceptionAgent,
    CaseReturn,
    ReviewActions,
    ReviewIntake,
    ReviewItemFollowUp,
    AgentTriage,
    AgentActionDecisions,
  ]);
}

/** The instances registered in `container` by `registerReviewUseCases`. */
export function reviewUseCases(container: DependencyContainer): ReviewUseCases {
  return {
    index: container.resolve(ReviewQueueIndex),
    changes: container.resolve(ReviewItemChanges),
    actions: container.resolve(ReviewActions),
    intake: container.resolve(ReviewIntake),
    followUp: container.resolve(ReviewItemFollowUp),
    overrides: container.resolve(PolicyOverrides),
    agent: container.resolve(ExceptionAgent),
    triage: container.resolve(AgentTriage),
    decisions: container.resolve(AgentActionDecisions),
  };
}
