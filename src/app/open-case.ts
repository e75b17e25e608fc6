import { inject, injectable } from "tsyringe";
import { CaseActor, type OpenCaseResult } from "../../actors/CaseActor.js";
import { type OpenCaseCommand, caseIdFor } from "../domain/case.js";
import type { ActorRuntime } from "../runtime/actor-runtime.js";
import { TOKENS } from "../runtime/tokens.js";

/**
 * Opens a case for a disruption. Replays of the same externalEventId (per tenant) reach the same
 * case actor, whose mailbox serializes them: the first opens the case, the rest get it back.
 */
@injectable()
export class OpenCase {
  constructor(@inject(TOKENS.actors) private readonly actors: ActorRuntime) {}

  execute(command: OpenCaseCommand): Promise<OpenCaseResult> {
    return this.actors.invoke(CaseActor, caseIdFor(command.tenant, command.externalEventId), "open", command);
  }
}
