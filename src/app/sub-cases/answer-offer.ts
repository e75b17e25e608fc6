import { SubCaseActor, subCaseActorIdFor } from "../../../actors/SubCaseActor.js";
import type { SubCaseView } from "../../domain/events/sub-case.js";
import type { ActorRuntime } from "../../runtime/actor-runtime.js";
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
 * The saga run that made the offer waits for the answer as an external event. The actor's event
 * (`subcase.resolved` or `subcase.declined`, from its outbox) raises it in the workers, the app that
 * runs the workflows (SubCaseSagas.deliverAnswer); and the run reads the answer from the sub-case
 * at its deadline should the event be late.
 */
@injectable()
export class AnswerOffer {
  constructor(
    @inject(TOKENS.actors) private readonly actors: ActorRuntime,
    @inject(SubCaseIndex) private readonly index: SubCaseIndex,
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
    if (!result.replayed) await this.index.record(result.view);
    return result;
  }
}
