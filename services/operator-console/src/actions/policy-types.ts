import type { PolicyRules } from "../policy-diff.js";

/** A policy as the API answers it (spec 2.4; the operator OpenAPI document's policy schema). */
export interface Policy extends PolicyRules {
  urn: string;
  name: string;
  context: { airport: string; airline: string };
  tiers: string[];
  version: number;
  status: "DRAFT" | "ACTIVE" | "ARCHIVED";
  createdAt: string;
  updatedAt: string;
  provenance?: { source: string; confidence: number; prompt: string };
}

/** GET /v1/policies/{urn}: the policy and every version of it, oldest first. */
export interface PolicyWithVersions extends Policy {
  versions: Policy[];
}

/** The numeric rules the policy forms offer as fields (the rest is edited as JSON): label and path. */
export const NUMBER_RULES: readonly { label: string; path: readonly string[] }[] = [
  { label: "Minimum stars", path: ["constraints", "minStars"] },
  { label: "Maximum distance (km)", path: ["constraints", "maxDistanceKm"] },
  { label: "Maximum nightly rate", path: ["constraints", "maxNightlyRate"] },
  { label: "Rooms approved automatically per wave", path: ["maxAutomaticRoomsPerWave"] },
];
