import { offerKey } from "../../domain/allocation/offer.js";
import type { RankingClass } from "../../domain/allocation/ranking.js";
import { AGENT_CATEGORIES, recommend, type WaveCandidate } from "../../domain/agent/recommendations.js";
import type { ReviewCategory } from "../../domain/case.js";
import type { Policy } from "../../domain/policy/policy.js";
import type { Recommendation } from "../../domain/review-item.js";
import type { Doc, DocumentStore } from "../../runtime/document-store.js";
import {
  type WaveDocument,
  type WaveGroupRecord,
  type WaveOfferRecord,
  WAVES_COLLECTION,
} from "../allocation/wave-documents.js";
import { PolicyIndex } from "../policies/policy-index.js";
import { applyOverride, PolicyOverrides } from "../policies/policy-overrides.js";
import { inject, injectable } from "tsyringe";
import { TOKENS } from "../../runtime/tokens.js";

/**
 * What the agent reads of a stored wave (src/app/allocation/wave-documents.ts); it recommends
 * nothing from a wave that lacks the ranking.
 */
type AgentWave = Doc &
  Pick<WaveDocument, "tenant" | "caseUrn" | "createdAt"> &
  Partial<Pick<WaveDocument, "policyUrn" | "policyVersion" | "sequence">> & {
    rankingInputs?: WaveCandidate[];
    /** Absent from waves written before verdicts named classes of groups. */
    rankingClasses?: RankingClass[];
    /** Every hotel the wave considered, with each offer's rooms. */
    hotels?: { offers?: Pick<WaveOfferRecord, "provider" | "providerOfferId" | "roomsAvailable">[] }[];
    groups?: Pick<WaveGroupRecord, "groupId" | "rooms">[];
  };

/** The agent over the stores: the case's latest wave, its policy and the case's override. */
@injectable()
export class ExceptionAgent {
  private readonly policies: PolicyIndex;

  constructor(
    @inject(TOKENS.documents) private readonly store: DocumentStore,
    @inject(PolicyOverrides) private readonly overrides: PolicyOverrides,
  ) {
    this.policies = new PolicyIndex(store);
  }

  async recommendationsFor(item: {
    tenant: string;
    caseUrn: string;
    category: ReviewCategory;
    affectedGroups: readonly string[];
    attemptedHotels: readonly { hotelUrn: string }[];
  }): Promise<Recommendation[]> {
    if (!AGENT_CATEGORIES.includes(item.category)) return [];
    // The latest written first: a wave number only orders waves written in the same millisecond.
    const wave = await this.store
      .collection<AgentWave>(WAVES_COLLECTION)
      .findOne({ tenant: item.tenant, caseUrn: item.caseUrn }, { sort: { createdAt: -1, sequence: -1 } });
    if (!wave?.rankingInputs) return [];
    const [policy, override] = await Promise.all([
      this.policyOf(wave),
      this.overrides.of(item.tenant, item.caseUrn),
    ]);
    const needs = (wave.groups ?? [])
      .filter((g) => item.affectedGroups.includes(g.groupId))
      .map((g) => g.rooms);
    const offers = (wave.hotels ?? []).flatMap((h) => h.offers ?? []);
    return recommend({
      category: item.category,
      affectedGroups: item.affectedGroups,
      attemptedHotels: item.attemptedHotels,
      rankingInputs: wave.rankingInputs,
      rankingClasses: wave.rankingClasses ?? [],
      ...(policy ? { constraints: applyOverride(policy.constraints, override?.fields) } : {}),
      ...(offers.length > 0
        ? {
            roomsAvailable: new Map(
              offers.map((o) => [offerKey(o.provider, o.providerOfferId), o.roomsAvailable]),
            ),
          }
        : {}),
      ...(needs.length > 0 ? { roomsNeeded: Math.min(...needs) } : {}),
    });
  }

  private policyOf(wave: AgentWave): Promise<Policy | undefined> {
    if (!wave.policyUrn) return Promise.resolve(undefined);
    return this.policies.versionOf(wave.tenant, wave.policyUrn, wave.policyVersion ?? null);
  }
}
