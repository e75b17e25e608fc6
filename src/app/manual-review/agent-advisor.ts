import type { Advice, Classification, Proposal } from "../../domain/agent/triage.js";

/** What the agent's proposals are shown to a language model as; `key` is `proposalKey`. */
export interface AdviceRequest {
  classification: Classification;
  proposals: readonly (Proposal & { key: string })[];
}

/**
 * An optional language model that re-ranks and explains the rules' proposals (spec 4.1 exception
 * agent). Whatever it answers goes through `applyAdvice`, which keeps only proposals the rules made
 * with tools of the allow-list: it cannot add an action. Chosen in src/main.ts (AGENT_LLM_URL); off
 * by default, and no test needs one. An advisor that fails answers undefined: the rules' order stands.
 */
export interface AgentAdvisor {
  advise(request: AdviceRequest): Promise<Advice | undefined>;
}

/** The default: no model, the rules' order. */
export const NO_ADVISOR: AgentAdvisor = { advise: async () => undefined };
