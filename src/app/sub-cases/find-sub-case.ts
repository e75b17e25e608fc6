import { SubCaseActor, subCaseActorId } from "../../../actors/SubCaseActor.js";
import type { SubCaseView } from "../../domain/events/sub-case.js";
import { DomainError } from "../../domain/domain-error.js";
import type { ActorRuntime } from "../../runtime/actor-runtime.js";

/**
 * The sub-case a URN names (either URN form), read from its actor, for the caller to authorize
 * before acting on it; a sub-case whose group left the case is still found, and refuses work.
 */
export async function findSubCase(actors: ActorRuntime, subCaseUrn: string): Promise<SubCaseView> {
  const id = subCaseActorId(subCaseUrn);
  const view = id ? await actors.invoke(SubCaseActor, id, "get") : undefined;
  if (!view) throw new DomainError("not-found", "sub-case", `No sub-case ${subCaseUrn}`);
  return view;
}
