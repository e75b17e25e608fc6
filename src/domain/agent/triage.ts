import { canonicalJson } from "../canonical-json.js";
import type { ReviewCategory } from "../case.js";
import type { AttemptedHotel, Recommendation } from "../review-item.js";
import { type AgentTool, isAgentTool } from "./agent-tools.js";
import { MAX_RECOMMENDATIONS } from "./recommendations.js";

/** Why an item is in the queue, in the agent's words (spec 4.1 "classify cause"). */
export const TRIAGE_CAUSES = [
  "NO_COMPLIANT_HOTEL",
  "HOTELS_FULL",
  "VENDOR_REFUSED",
  "PAYMENT_REFUSED",
  "PARTIAL_BOOKING",
  "NO_POLICY",
  "MIXED_TIERS",
  "MANIFEST_INCOMPLETE",
  "PASSENGER_REPORT",
  "FUNDING_EXHAUSTED",
  "UNWANTED_ROOM",
] as const;
export type TriageCause = (typeof TRIAGE_CAUSES)[number];

/** A fact a classification or a proposal rests on, and where it was read. */
export interface Evidence {
  source: "review-item" | "wave" | "case";
  detail: string;
}

export interface Classification {
  cause: TriageCause;
  explanation: string;
  evidence: Evidence[];
}

/** A next action the agent proposes; `rank` 1 is the most viable. */
export interface Proposal {
  tool: AgentTool;
  arguments: Record<string, unknown>;
  reason: string;
  evidence: Evidence[];
  rank: number;
  /** A language model's explanation, when one re-ranked the proposals. */
  explanation?: string;
}

/** What triage reads of a review item (spec 2.5). */
export interface TriageSubject {
  category: ReviewCategory;
  affectedGroups: readonly string[];
  attemptedHotels: readonly AttemptedHotel[];
}

/** The case's groups, when triage has them: a mixed-tier group is split by tier. */
export interface TriageGroup {
  id: string;
  passengers: readonly { id: string; tier?: string }[];
}

const CAPACITY_REFUSALS = new Set(["hotel-full", "no-rooms", "not-enough-rooms", "NO_AVAILABILITY"]);
const PAYMENT_REFUSALS = new Set(["payment-refused", "INVALID_PAYMENT_INFO"]);

function attemptEvidence(attempt: AttemptedHotel): Evidence {
  const vendor = attempt.providerError ? ` (vendor error ${attempt.providerError})` : "";
  return { source: "review-item", detail: `${attempt.hotelUrn} refused: ${attempt.reason}${vendor}` };
}

/**
 * The cause of an item, from its category and what the attempted hotels answered. A payment refusal
 * anywhere makes it a payment problem (another hotel would refuse the same card); refusals that all
 * say "full" make it a capacity problem; any other vendor refusal a vendor problem.
 */
export function classify(subject: TriageSubject): Classification {
  const attempts = subject.attemptedHotels;
  const category: Evidence = { source: "review-item", detail: `category ${subject.category}` };
  const evidence = [category, ...attempts.map(attemptEvidence)];
  const said = (codes: ReadonlySet<string>) => (a: AttemptedHotel) =>
    codes.has(a.reason) || (a.providerError !== undefined && codes.has(a.providerError));
  const found = (cause: TriageCause, explanation: string): Classification => ({
    cause,
    explanation,
    evidence,
  });
  switch (subject.category) {
    case "POLICY_VIOLATION":
      return found("NO_POLICY", "No active policy matched the case's context");
    case "MIXED_TIER_GROUP":
      return found("MIXED_TIERS", "A passenger group spans tiers with different entitlements");
    case "DATA_INCOMPLETE":
      return found("MANIFEST_INCOMPLETE", "The manifest misses fields allocation needs");
    case "PASSENGER_REPORTED":
      return found("PASSENGER_REPORT", "A passenger reported a problem");
    case "WALLET_FUNDING_EXHAUSTED":
      return found("FUNDING_EXHAUSTED", "The wallet issuer refused a card: the funding pool is exhausted");
    case "MANUAL_RECONCILIATION":
      return found(
        "UNWANTED_ROOM",
        "A vendor holds a room nobody needs and will not cancel it for free: settle it with the vendor",
      );
    default:
      break;
  }
  if (subject.category === "PAYMENT_FAILED" || attempts.some(said(PAYMENT_REFUSALS))) {
    return found("PAYMENT_REFUSED", "The payment service refused the card or token");
  }
  if (attempts.length > 0 && attempts.every(said(CAPACITY_REFUSALS))) {
    return found("HOTELS_FULL", "Every attempted hotel had no room left for the group");
  }
  if (attempts.some((a) => a.providerError !== undefined)) {
    return found("VENDOR_REFUSED", "A hotel vendor refused the booking");
  }
  if (subject.category === "PARTIAL_FULFILLMENT") {
    return found("PARTIAL_BOOKING", "Some groups were booked, others were not");
  }
  return found("NO_COMPLIANT_HOTEL", "No policy-compliant hotel was available for the groups");
}

/**
 * The agent's proposals, best first, at most three: a mixed-tier group is split by tier first (no
 * hotel fixes a group whose passengers are entitled to different stays); then the recommendations
 * of the case's latest wave (`recommend`, already in order of viability: rebooks on the hotels most
 * likely to house the groups, then the one policy relaxation that lets most hotels in).
 */
export function propose(
  subject: TriageSubject,
  recommendations: readonly Recommendation[],
  groups: readonly TriageGroup[] = [],
): Proposal[] {
  const attempted = subject.attemptedHotels.map((a) => a.hotelUrn);
  const proposals: Omit<Proposal, "rank">[] = [];
  if (subject.category === "MIXED_TIER_GROUP") {
    for (const group of groups.filter((g) => subject.affectedGroups.includes(g.id))) {
      const into = splitByTier(group);
      if (into.length < 2) continue;
      proposals.push({
        tool: "split",
        arguments: { into },
        reason: `Group ${group.id} spans ${into.length} tiers; split, each part is allocated under its own tier`,
        evidence: [
          { source: "case", detail: `group ${group.id}: ${tierSummary(group)}` },
          { source: "review-item", detail: `category ${subject.category}` },
        ],
      });
    }
  }
  for (const recommendation of recommendations) {
    const wave: Evidence = { source: "wave", detail: recommendation.reason };
    const skipped: Evidence[] =
      attempted.length > 0
        ? [{ source: "review-item", detail: `already attempted: ${attempted.join(", ")}` }]
        : [];
    if (recommendation.action === "rebook") {
      proposals.push({
        tool: "proposeRebook",
        arguments: { hotelUrn: recommendation.hotelUrn },
        reason: `Rebook the groups without a room on ${recommendation.hotelUrn}`,
        evidence: [wave, ...skipped],
      });
    } else {
      proposals.push({
        tool: "relax",
        arguments: { fields: recommendation.fields },
        reason: `Relax ${Object.keys(recommendation.fields).join(", ")} for this case only and run the wave again`,
        evidence: [wave],
      });
    }
  }
  return proposals.slice(0, MAX_RECOMMENDATIONS).map((p, i) => ({ ...p, rank: i + 1 }));
}

/** Passenger ids by tier, in the order the tiers first appear; passengers without a tier stay together. */
export function splitByTier(group: TriageGroup): string[][] {
  const byTier = new Map<string, string[]>();
  for (const passenger of group.passengers) {
    const tier = passenger.tier ?? "";
    byTier.set(tier, [...(byTier.get(tier) ?? []), passenger.id]);
  }
  return [...byTier.values()];
}

function tierSummary(group: TriageGroup): string {
  return group.passengers.map((p) => `${p.id} ${p.tier ?? "no tier"}`).join(", ");
}

/** What identifies a proposal: the same tool with the same arguments is the same proposal. */
export function proposalKey(proposal: Pick<Proposal, "tool" | "arguments">): string {
  return `${proposal.tool}:${canonicalJson(proposal.arguments)}`;
}

/** What a language model may say about the rules' proposals: an order, and an explanation each. */
export interface Advice {
  ranked: readonly { key?: unknown; tool?: unknown; explanation?: unknown }[];
}

/**
 * The rules' proposals in the order a language model advised, with its explanations. It can only
 * reorder and explain: an entry naming a tool outside the allow-list, or a proposal the rules did
 * not make, is dropped, and every proposal it left out keeps its place after those it named.
 */
export function applyAdvice(proposals: readonly Proposal[], advice: Advice | undefined): Proposal[] {
  if (!advice || !Array.isArray(advice.ranked)) return [...proposals];
  const byKey = new Map(proposals.map((p) => [proposalKey(p), p]));
  const ordered: Proposal[] = [];
  for (const entry of advice.ranked) {
    if (!isAgentTool(entry?.tool) || typeof entry.key !== "string") continue;
    const proposal = byKey.get(entry.key);
    if (!proposal || proposal.tool !== entry.tool || ordered.includes(proposal)) continue;
    const explanation = typeof entry.explanation === "string" ? entry.explanation.trim().slice(0, 500) : "";
    ordered.push(explanation ? { ...proposal, explanation } : proposal);
  }
  const rest = proposals.filter((p) => !ordered.some((o) => proposalKey(o) === proposalKey(p)));
  return [...ordered, ...rest].slice(0, MAX_RECOMMENDATIONS).map((p, i) => ({ ...p, rank: i + 1 }));
}
