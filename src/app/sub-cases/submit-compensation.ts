import { SubCaseActor, subCaseActorId } from "../../../actors/SubCaseActor.js";
import type { SubCaseView } from "../../domain/events/sub-case.js";
import { payloadHash } from "../../domain/canonical-json.js";
import type { SubCaseStatus } from "../../domain/sub-case.js";
import type { ActorRuntime } from "../../runtime/actor-runtime.js";
import { SubCaseIndex } from "./sub-case-index.js";
import { inject, injectable } from "tsyringe";
import { TOKENS } from "../../runtime/tokens.js";

/** The body of a compensation request; all of it is hashed to recognise replays. */
export interface CompensationPayload {
  /** Required while the sub-case is locked: the live lock's token. */
  fencingToken?: number;
  /** When given, the request is refused (409 with the current version) unless it still matches. */
  expectedVersion?: number;
  reason?: string;
}

export interface CompensationAccepted {
  subCaseUrn: string;
  caseUrn: string;
  correlationUrn: string;
  status: SubCaseStatus;
  version: number;
  replayed: boolean;
}

/**
 * An operator submits compensation for a sub-case (spec 3.4, 4.1): the request is recorded, the
 * sub-case moves to PROCESSING and `subcase.processing` is published, and the caller answers 202
 * at once. The compensation saga that acts on the event is not part of this step.
 */
@injectable()
export class SubmitCompensation {
  constructor(
    @inject(TOKENS.actors) private readonly actors: ActorRuntime,
    @inject(SubCaseIndex) private readonly index: SubCaseIndex,
  ) {}

  async execute(
    subCase: SubCaseView,
    by: string,
    payload: CompensationPayload,
    correlationUrn: string,
  ): Promise<CompensationAccepted> {
    const result = await this.actors.invoke(SubCaseActor, subCaseActorId(subCase.subCaseUrn)!, "compensate", {
      by,
      payloadHash: payloadHash(payload),
      correlationUrn,
      ...payload,
    });
    if (!result.replayed) await this.index.record(result.view);
    return {
      subCaseUrn: result.view.subCaseUrn,
      caseUrn: result.view.caseUrn,
      correlationUrn: result.correlationUrn,
      status: result.view.status,
      version: result.view.version,
      replayed: result.replayed,
    };
  }
}
