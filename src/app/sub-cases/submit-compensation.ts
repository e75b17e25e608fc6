import { SubCaseActor, subCaseActorId } from "../../../actors/SubCaseActor.js";
import type { SubCaseView } from "../../domain/events/sub-case.js";
import { payloadHash } from "../../domain/canonical-json.js";
import type { SubCaseStatus } from "../../domain/sub-case.js";
import type { ActorRuntime } from "../../runtime/actor-runtime.js";
import { SubCaseIndex } from "./sub-case-index.js";
import { SubCaseSagas } from "./sub-case-sagas.js";
import { inject, injectable } from "tsyringe";
import { TOKENS } from "../../runtime/tokens.js";

/**
 * What the compensation does (the saga's CompensationAction): `reoffer`, the default, confirms the
 * stay the group holds now, takes its voucher and offers it to the passenger again. A group to be
 * moved to another hotel is moved first (a wave override, or the review queue's `rebook` action);
 * the compensation then offers the new stay.
 */
export const COMPENSATION_ACTIONS = ["reoffer"] as const;

/** The body of a compensation request; all of it is hashed to recognise replays. */
export interface CompensationPayload {
  action?: (typeof COMPENSATION_ACTIONS)[number];
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
 * sub-case moves to PROCESSING under a new saga run (its instance id derived from the request's
 * correlation URN) and `subcase.processing` is published with what the run is to do; the caller
 * answers 202 at once. The workers, which run the workflows, schedule the run on that event
 * (services/sub-cases/sub-case-subscriptions.ts), so the request waits for no engine.
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
      sagaInstanceId: SubCaseSagas.compensationRunOf(subCase.subCaseUrn, correlationUrn),
      action: payload.action ?? "reoffer",
      ...(payload.fencingToken !== undefined ? { fencingToken: payload.fencingToken } : {}),
      ...(payload.expectedVersion !== undefined ? { expectedVersion: payload.expectedVersion } : {}),
      ...(payload.reason !== undefined ? { reason: payload.reason } : {}),
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
