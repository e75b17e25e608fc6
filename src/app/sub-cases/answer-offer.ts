import type { Logger } from "pino";
import { SubCaseActor, subCaseActorIdFor } from "../../../actors/SubCaseActor.js";
import type { SubCaseView } from "../../domain/events/sub-case.js";
import type { ActorRuntime } from "../../runtime/actor-runtime.js";
import type { WorkflowEngine } from "../../runtime/workflow-engine.js";
import { OFFER_ANSWER_EVENT, type OfferAnswerEvent } from "../../workflows/sub-case-saga/model.js";
import { SubCaseIndex } from "./sub-case-index.js";
import { inject, injectable } from "tsyringe";
import { TOKENS } from "../../runtime/tokens.js";

export interface OfferAnswer {
  view: SubCaseView;
  /** True for a repeat accept of an accepted offer: the cached answer, nothing published again. */
  replayed: boolean;
}

export interface AnswerRequest {
  caseUrn: string;
  groupId: string;
  /** The passenger session's subject URN. */
  by: string;
  correlationUrn: string;
}

/**
 * The passenger answers the offer of the group's sub-case (spec 3.4, 4.4 accept / decline). The
 * answer is decided in the SubCaseActor, one at a time, so of any number of concurrent accepts
 * exactly one moves the sub-case to RESOLVED and publishes `subcase.resolved`; the others are
 * replays. An answer to an offer already answered otherwise is the domain's conflict (409).
 *
 * The saga run that made the offer waits for the answer as an external event: it is raised once
 * the actor has decided. Should raising it fail, the run still learns the answer at its deadline,
 * when it reads the sub-case again (src/workflows/sub-case-saga/workflow.ts).
 */
@injectable()
export class AnswerOffer {
  constructor(
    @inject(TOKENS.actors) private readonly actors: ActorRuntime,
    @inject(TOKENS.workflows) private readonly workflows: WorkflowEngine,
    @inject(SubCaseIndex) private readonly index: SubCaseIndex,
    @inject(TOKENS.logger) private readonly logger: Logger,
  ) {}

  accept(request: AnswerRequest): Promise<OfferAnswer> {
    return this.answer(request, { kind: "ACCEPTED" });
  }

  decline(request: AnswerRequest & { reason: string }): Promise<OfferAnswer> {
    return this.answer(request, { kind: "DECLINED", reason: request.reason });
  }

  private async answer(
    request: AnswerRequest,
    answer: { kind: "ACCEPTED" | "DECLINED"; reason?: string },
  ): Promise<OfferAnswer> {
    const result = await this.actors.invoke(
      SubCaseActor,
      subCaseActorIdFor(request.caseUrn, request.groupId),
      "answer",
      { ...answer, by: request.by, correlationUrn: request.correlationUrn },
    );
    if (result.replayed) return result;
    await this.index.record(result.view);
    const instanceId = result.view.sagaInstanceId;
    if (instanceId) {
      const event: OfferAnswerEvent = { kind: answer.kind, correlationUrn: request.correlationUrn };
      await this.workflows.raiseEvent(instanceId, OFFER_ANSWER_EVENT, event).catch((error: unknown) => {
        this.logger.warn(
          { err: error, instanceId, subCaseUrn: result.view.subCaseUrn },
          "could not raise the offer answer on its saga run; the run reads it at its deadline",
        );
      });
    }
    return result;
  }
}
