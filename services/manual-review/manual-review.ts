import { CaseReturn } from "../../src/app/manual-review/case-return.js";
import { ExceptionAgent } from "../../src/app/manual-review/exception-agent.js";
import { PolicyOverrides } from "../../src/app/manual-review/policy-overrides.js";
import { ReviewActions } from "../../src/app/manual-review/review-actions.js";
import { ReviewIntake } from "../../src/app/manual-review/review-intake.js";
import { ReviewItemChanges } from "../../src/app/manual-review/review-item-changes.js";
import { ReviewItemFollowUp } from "../../src/app/manual-review/review-item-follow-up.js";
import { ReviewQueueIndex } from "../../src/app/manual-review/review-queue-index.js";
import { casesOf } from "../cases/cases.js";
import type { ModuleContext } from "../module.js";

/** The manual-review queue's use cases, built once per running platform. */
export interface ManualReview {
  index: ReviewQueueIndex;
  changes: ReviewItemChanges;
  actions: ReviewActions;
  intake: ReviewIntake;
  followUp: ReviewItemFollowUp;
  overrides: PolicyOverrides;
  agent: ExceptionAgent;
}

const built = new WeakMap<ModuleContext, ManualReview>();

/** The same instances for the routes and the event handlers of one platform. */
export function manualReviewOf(context: ModuleContext): ManualReview {
  let manualReview = built.get(context);
  if (!manualReview) {
    manualReview = build(context);
    built.set(context, manualReview);
  }
  return manualReview;
}

function build(context: ModuleContext): ManualReview {
  const { actors, documents, clock } = context.runtime;
  const cases = casesOf(context);
  const index = new ReviewQueueIndex(documents);
  const changes = new ReviewItemChanges(actors, index, context.audit);
  const overrides = new PolicyOverrides(documents, clock);
  const agent = new ExceptionAgent(documents, overrides);
  const caseReturn = new CaseReturn(cases, index);
  return {
    index,
    changes,
    actions: new ReviewActions({
      actors,
      changes,
      cases,
      caseReturn,
      overrides,
      directory: context.directory,
    }),
    intake: new ReviewIntake(actors, index, cases.changes, agent),
    followUp: new ReviewItemFollowUp(actors, index, context.audit, caseReturn),
    overrides,
    agent,
  };
}
