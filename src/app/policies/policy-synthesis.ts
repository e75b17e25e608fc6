import { DomainError } from "../../domain/domain-error.js";
import type { Amenity, PolicyInput, TransportMode } from "../../domain/policy/policy.js";
import type { Tier } from "../../domain/policy/tiers.js";

/**
 * Turns a plain-language description into a DRAFT policy (POST /policies/synthesize,
 * /v1/policies/generate-ai). No language model runs here: it is a fixed set of phrase rules, so the
 * same description always gives the same draft, and a supervisor reviews it before activating.
 *
 * Confidence is the share of the description's clauses (split at punctuation and at "and", "with",
 * "but", "plus") in which some rule recognised a phrase, scaled to at most 0.9: a rule-based reading
 * is never certain. A description in which nothing is recognised is refused.
 */

export interface SynthesisContext {
  /** The caller's airline code; the draft is for this airline. */
  airline: string;
  /** The airline's airport codes; an upper-case three-letter word among them names the airport. */
  airports: readonly string[];
}

export interface SynthesizedPolicy {
  input: PolicyInput;
  confidence: number;
  /** The phrases that were recognised, in the order they appear. */
  recognised: string[];
}

const MAX_CONFIDENCE = 0.9;
const KM_PER_MILE = 1.609344;

interface Draft {
  airport?: string;
  tiers: Set<Tier>;
  constraints: NonNullable<PolicyInput["constraints"]>;
  amenities: Set<Amenity>;
  buffers: NonNullable<PolicyInput["buffers"]>;
  rest: Omit<PolicyInput, "name" | "context" | "tiers" | "constraints" | "buffers" | "provenance">;
  transportMode?: TransportMode;
}

interface PhraseRule {
  pattern: RegExp;
  /** Returns false when the phrase is there but its value is out of range (then it does not count). */
  apply(match: RegExpExecArray, draft: Draft): false | undefined;
}

const NUMBER_WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5 };
const TIER_WORDS: [RegExp, Tier][] = [
  [/\bpremium[- ]economy\b/i, "PREMIUM_ECONOMY"],
  [/\b(?<!premium[- ])economy\b/i, "ECONOMY"],
  [/\bbusiness\b/i, "BUSINESS"],
  [/\bfirst[- ]class\b|\bfirst\s+(?:tier|cabin|passengers)\b/i, "FIRST"],
  [/\bcrews?\b/i, "CREW"],
];

const RULES: PhraseRule[] = [
  {
    pattern: /\b([1-5]|one|two|three|four|five)[\s-]*stars?\b/gi,
    apply: (m, d) => {
      d.constraints.minStars = NUMBER_WORDS[m[1]!.toLowerCase()] ?? Number(m[1]);
    },
  },
  {
    pattern: /\b(\d+(?:\.\d+)?)\s*(km|kilomet(?:er|re)s?|mi|miles?)\b/gi,
    apply: (m, d) => {
      const value = Number(m[1]) * (m[2]!.toLowerCase().startsWith("k") ? 1 : KM_PER_MILE);
      if (value <= 0 || value > 1000) return false;
      d.constraints.maxDistanceKm = Math.round(value * 10) / 10;
    },
  },
  {
    pattern:
      /(?:\b(?:max(?:imum)?|up to|under|below|at most|no more than|capped at|cap of|budget of)\s+(?:of\s+)?(?:[$€£]\s*|(?:usd|eur|gbp)\s+)?|[$€£]\s*)(\d+(?:\.\d+)?)(?!\.?\d)(?!\s*(?:km|kilomet|mi\b|miles?|rooms?|minutes?|mins?|hours?|h\b|stars?|%))/gi,
    apply: (m, d) => {
      const value = Number(m[1]);
      if (value <= 0) return false;
      d.constraints.maxNightlyRate = value;
    },
  },
  { pattern: /\b(?:airport )?shuttle\b/gi, apply: (_, d) => void d.amenities.add("AIRPORT_SHUTTLE") },
  { pattern: /\bbreakfast\b/gi, apply: (_, d) => void d.amenities.add("FREE_BREAKFAST") },
  {
    pattern: /\bwheelchair\b|\b(?:step-free|accessible)\b|\breduced mobility\b/gi,
    apply: (_, d) => void d.amenities.add("WHEELCHAIR_ACCESSIBLE"),
  },
  {
    pattern:
      /\b(?:24\s*(?:h|hours?|\/7)|round[- ]the[- ]clock|all[- ]night)\s*(?:front[- ]desk|reception)\b/gi,
    apply: (_, d) => void d.amenities.add("24H_RECEPTION"),
  },
  {
    pattern:
      /\bauto(?:matically)?[- ]?approv(?:e|ed|al)\b[^.;,]*?\b(?:up to|max(?:imum)?|at most|of)\s+(\d+)\s*rooms?\b/gi,
    apply: (m, d) => {
      const rooms = Number(m[1]);
      if (rooms > 10000) return false;
      d.rest.autoApproveDemand = true;
      d.rest.maxAutomaticRoomsPerWave = rooms;
    },
  },
  {
    pattern: /\bincremental\b[^.;,]*?\b(?:approval|approve[sd]?|supervisor)\b/gi,
    apply: (_, d) => {
      d.rest.incrementalRequiresApproval = true;
    },
  },
  {
    pattern: /\b(?:pay(?:ment)?s?\s+by\s+card|card payments?|virtual cards?|credit cards?)\b/gi,
    apply: (_, d) => {
      d.constraints.acceptedPayments = ["GUARANTEE", "CARD"];
    },
  },
  {
    pattern: /\bbatch(?:es)?\b/gi,
    apply: (_, d) => {
      d.rest.mode = "BATCH";
    },
  },
  {
    pattern: /\bon[- ]demand\b/gi,
    apply: (_, d) => {
      d.rest.mode = "ON_DEMAND";
    },
  },
  {
    pattern:
      /\b(late check[- ]?out|early check[- ]?in)\s+(?:of\s+|until\s+|by\s+)?(\d+)\s*(hours?|h|minutes?|mins?)\b/gi,
    apply: (m, d) => {
      const minutes = Number(m[2]) * (m[3]!.toLowerCase().startsWith("h") ? 60 : 1);
      if (minutes > 1440) return false;
      if (m[1]!.toLowerCase().startsWith("late")) d.buffers.lateCheckoutMinutes = minutes;
      else d.buffers.earlyCheckInMinutes = minutes;
    },
  },
  {
    pattern: /\b(?:[Ee]xclud(?:e|ing)|[Aa]void(?:ing)?)\s+(?:the\s+)?([A-Z][\w-]*(?:\s+[A-Z][\w-]*)*)/g,
    apply: (m, d) => {
      const chain = m[1]!.toLowerCase().replace(/\s+/g, "-");
      d.constraints.excludedChains = [...(d.constraints.excludedChains ?? []), chain];
    },
  },
  {
    pattern: /\b(private car|taxi)s?\b/gi,
    apply: (m, d) => {
      d.transportMode = m[1]!.toLowerCase() === "taxi" ? "TAXI" : "PRIVATE_CAR";
    },
  },
];

export function synthesizePolicy(description: string, context: SynthesisContext): SynthesizedPolicy {
  const draft: Draft = { tiers: new Set(), constraints: {}, amenities: new Set(), buffers: {}, rest: {} };
  const found: { at: number; end: number; text: string }[] = [];
  const note = (match: RegExpExecArray) =>
    found.push({ at: match.index, end: match.index + match[0].length, text: match[0].trim() });

  for (const rule of RULES) {
    for (const match of description.matchAll(rule.pattern)) {
      if (rule.apply(match as RegExpExecArray, draft) !== false) note(match as RegExpExecArray);
    }
  }
  for (const [pattern, tier] of TIER_WORDS) {
    const match = new RegExp(pattern.source, `${pattern.flags}d`).exec(description);
    if (match) {
      draft.tiers.add(tier);
      note(match);
    }
  }
  const airport = findAirport(description, context.airports);
  if (airport) {
    draft.airport = airport.code;
    note(airport.match);
  }
  if (found.length === 0) {
    throw new DomainError(
      "unprocessable",
      "nothing-recognised",
      "The description names no rule this synthesizer recognises (stars, distance, nightly rate, amenities, airport, tiers, approval limits)",
    );
  }
  found.sort((a, b) => a.at - b.at);
  return {
    input: toInput(description, draft, context.airline),
    confidence: confidenceOf(description, found),
    recognised: found.map((f) => f.text),
  };
}

/**
 * The first of the airline's airport codes written in upper case. Other three-letter capitals are
 * not taken for airports: "ALL", "USD" or "MAX" would be.
 */
function findAirport(description: string, airports: readonly string[]) {
  for (const match of description.matchAll(/\b[A-Z]{3}\b/g)) {
    if (airports.includes(match[0])) return { code: match[0], match: match as RegExpExecArray };
  }
  return undefined;
}

function toInput(description: string, draft: Draft, airline: string): PolicyInput {
  const tiers = [...draft.tiers];
  const perTierMode = draft.transportMode && tiers.length > 0;
  return {
    name: `Synthesized: ${description.trim().replace(/\s+/g, " ").slice(0, 120)}`,
    context: { airline, ...(draft.airport ? { airport: draft.airport } : {}) },
    tiers,
    constraints: {
      ...draft.constraints,
      ...(draft.amenities.size > 0 ? { requiredAmenities: [...draft.amenities] } : {}),
    },
    ...(Object.keys(draft.buffers).length > 0 ? { buffers: draft.buffers } : {}),
    ...draft.rest,
    ...(draft.transportMode
      ? {
          transport: perTierMode
            ? { perTier: Object.fromEntries(tiers.map((tier) => [tier, draft.transportMode!])) }
            : { mode: draft.transportMode },
        }
      : {}),
  };
}

function confidenceOf(description: string, found: readonly { at: number; end: number }[]): number {
  const separators = [...description.matchAll(/[.;,:\n]+|\b(?:and|but|with|plus)\b/gi)].map((m) => ({
    at: m.index,
    length: m[0].length,
  }));
  const clauses: { at: number; end: number }[] = [];
  let start = 0;
  for (const separator of [...separators, { at: description.length, length: 0 }]) {
    if (/[A-Za-z0-9]/.test(description.slice(start, separator.at)))
      clauses.push({ at: start, end: separator.at });
    start = separator.at + separator.length;
  }
  const understood = clauses.filter((clause) => found.some((f) => f.at < clause.end && f.end > clause.at));
  return Math.round((understood.length / Math.max(1, clauses.length)) * MAX_CONFIDENCE * 100) / 100;
}
