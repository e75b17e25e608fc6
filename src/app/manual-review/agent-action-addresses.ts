import { agentActionNotFound } from "../../../actors/AgentActionActor.js";
import { parseUrn } from "../../domain/urn.js";

/** An agent-action URN as the actor id and the canonical URN; 404 for anything else. */
export function agentActionRefOf(urn: string): { id: string; urn: string } {
  const parsed = parseUrn(urn, "agent-action");
  if (!parsed || Object.keys(parsed.attributes).length > 0) throw agentActionNotFound(urn);
  return { id: parsed.id, urn: `urn:agent-action:${parsed.id}` };
}
