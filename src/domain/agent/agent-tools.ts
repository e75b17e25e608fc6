/**
 * The exception agent's allow-list (spec 4.1, 4.2): the only tools a proposal may name. Anything
 * else a rule or a language model comes up with is dropped before it becomes a proposal. Booking
 * confirmation, payment capture, cancellation and notification are not tools at all: the agent
 * cannot book, cancel or send notifications; only an operator's approved rebook books, as that
 * operator.
 */
export const AGENT_TOOLS = ["search", "rerunAllocation", "proposeRebook", "relax", "split"] as const;
export type AgentTool = (typeof AGENT_TOOLS)[number];

/**
 * Tools whose execution cannot be taken back: `proposeRebook` ends in a booking confirmation. They
 * run only once an operator approved them, and then as that operator.
 */
export const IRREVERSIBLE_TOOLS: ReadonlySet<AgentTool> = new Set<AgentTool>(["proposeRebook"]);

export function isAgentTool(value: unknown): value is AgentTool {
  return typeof value === "string" && (AGENT_TOOLS as readonly string[]).includes(value);
}

export function isIrreversible(tool: AgentTool): boolean {
  return IRREVERSIBLE_TOOLS.has(tool);
}
