import { DomainError } from "../domain-error.js";
import { type Coordinates, greatCircleKm } from "../geo.js";
import { convert, type ExchangeRates, fromMajor, type Money, minus, money, plus, times } from "../money.js";
import { type Assignment, type AssignmentProblem, solveAssignment } from "./assignment.js";
import { dedupOffers } from "./dedup.js";
import {
  type DiscardReason,
  discardReasons,
  type GateConstraints,
  gatesFor,
  type OfferFacts,
} from "./gates.js";
import type { HotelOffer } from "./offer.js";
import type { AllocationWeights } from "../policy/policy.js";
import { type RankingClass, rankingClassId } from "./ranking.js";
import { type HotelScore, resolveWeights, scoreHotel, scoreScale } from "./scoring.js";

/** A passenger group to house: rooms it needs, for how many nights, and its passengers' tier. */
export interface WaveGroup {
  readonly groupId: string;
  readonly rooms: number;
  readonly nights: number;
  readonly tier: string;
}

/** The parts of a policy (spec 2.4) an allocation wave reads. */
export interface WavePolicy {
  /** Tiers the policy covers; absent or empty covers every tier. */
  readonly tiers?: readonly string[];
  readonly constraints: GateConstraints;
  readonly allocationWeights?: Partial<AllocationWeights>;
}

export interface WaveInput {
  readonly groups: readonly WaveGroup[];
  /** Offers from every inventory source, not yet de-duplicated. */
  readonly offers: readonly HotelOffer[];
  readonly policy: WavePolicy;
  readonly airport: Coordinates;
  /** The policy's currency: costs, ceilings and savings are stated in it. */
  readonly currency: string;
  readonly rates: ExchangeRates;
}

/**
 * Why a candidate was selected or discarded. Offer-level reasons (the gates' and
 * `duplicate-of:<providerOfferId>`, for a cheaper offer of the same hotel that represents it) apply
 * to every group; the others concern the groups of a row and one hotel:
 * - `assigned`: the groups go there;
 * - `not-enough-rooms`: the hotel has fewer rooms available than each of the groups needs, and a
 *   group is never split;
 * - `hotel-full`: the hotel could have taken the groups, but its rooms went to other groups;
 * - `better-score-elsewhere`: the hotel still has room, and the groups went to hotels that score
 *   better (or were left out: see the wave's unallocated).
 */
export type CandidateReason =
  | DiscardReason
  | `duplicate-of:${string}`
  | "assigned"
  | "not-enough-rooms"
  | "hotel-full"
  | "better-score-elsewhere";

/**
 * A candidate of the wave with its raw scores, weighted score and verdict (spec 2.6 rankingInputs),
 * for the groups of one class (./ranking.ts) or, on the offer itself, for every group. Groups
 * needing the same rooms for the same nights share every figure of a hotel, and all but those
 * placed there share its verdict, so each hotel has one row per class for its groups placed there
 * and one for the rest of the class. The class's groups are listed once, in the wave's
 * rankingClasses: a row naming them would repeat them for every hotel (17 million group ids at a
 * hub meltdown's 10,000 groups x 2,000 hotels). No two rows share an array, so a caller may store
 * the rows as they are.
 */
export interface RankingInput {
  /** The class of groups the verdict is about; null when the verdict is on the offer itself, for every group. */
  readonly classId: string | null;
  /**
   * On a `selected` row, the class's groups placed in the hotel, in the wave's order; null on every
   * other row: a class's `discarded` row is about every group of the class not placed there.
   */
  readonly groupIds: string[] | null;
  readonly hotelUrn: string;
  readonly provider: string;
  readonly providerOfferId: string;
  readonly raw: {
    /**
     * Nightly rate x rooms x nights in the wave's currency, for each of the groups (not their sum);
     * null for an offer-level row or no rate.
     */
    readonly cost: Money | null;
    /** The nightly rate in the wave's currency; null when the rate table cannot convert it. */
    readonly nightlyRate: Money | null;
    readonly distanceKm: number;
    /** Rooms available / rooms the wave requests. */
    readonly consolidation: number;
  };
  /** Null for offers that do not take part (gated out, or another offer represents the hotel). */
  readonly normalized: HotelScore["normalized"] | null;
  /** Penalty per room-night in [0, 1], lower is better; null where `normalized` is. */
  readonly weightedScore: number | null;
  readonly outcome: "selected" | "discarded";
  readonly reasons: CandidateReason[];
}

export interface Allocation {
  readonly groupId: string;
  readonly hotelUrn: string;
  readonly provider: string;
  readonly providerOfferId: string;
  /** Other offers for the same hotel that passed the gates, cheapest first: booking fallbacks. */
  readonly alternativeOfferIds: readonly string[];
  readonly rooms: number;
  readonly nights: number;
  readonly cost: Money;
  /** For a direct contract with a market rate: (market rate - contract rate) x rooms x nights. */
  readonly savingsVsMarket: Money | null;
}

/**
 * - `tier-not-covered`: the policy does not cover the group's tier;
 * - `no-policy-compliant-hotel`: no offer passed the gates (manual review ALLOCATION_FAILED);
 * - `no-hotel-with-enough-rooms`: compliant hotels exist, none with as many rooms as the group needs;
 * - `capacity-exhausted`: rooms existed, and housing this group would have left more rooms unhoused.
 */
export type UnallocatedReason =
  | "tier-not-covered"
  | "no-policy-compliant-hotel"
  | "no-hotel-with-enough-rooms"
  | "capacity-exhausted";

export interface WavePlan {
  readonly rankingClasses: RankingClass[];
  readonly rankingInputs: RankingInput[];
  readonly allocations: readonly Allocation[];
  readonly unallocated: readonly { readonly groupId: string; readonly reason: UnallocatedReason }[];
  readonly totalCost: Money;
  readonly savingsVsMarket: Money;
}

/** A hotel taking part in the assignment, through its cheapest offer that passed every gate. */
export interface HotelCandidate {
  readonly hotelUrn: string;
  readonly offer: HotelOffer;
  readonly alternatives: readonly HotelOffer[];
  /** The offer's rates in the wave's currency. */
  readonly nightlyRate: Money;
  readonly marketNightlyRate: Money | null;
  readonly distanceKm: number;
  readonly consolidation: number;
  readonly score: HotelScore;
}

/** A wave turned into an assignment problem, before solving; bench/allocation.ts solves it too. */
export interface PreparedWave {
  readonly problem: AssignmentProblem;
  readonly currency: string;
  /** Groups the policy covers, in problem order. */
  readonly groups: readonly WaveGroup[];
  /** Hotels taking part, in problem order. */
  readonly candidates: readonly HotelCandidate[];
  readonly offerVerdicts: readonly RankingInput[];
  readonly uncoveredGroups: readonly WaveGroup[];
}

/**
 * Plans one allocation wave: de-duplicates the offers, gates them by the policy, scores the
 * hotels, assigns groups to hotels over the whole wave at once (assignment.ts), and reports every
 * candidate with its verdict. Pure: rates and the airport come in, nothing is fetched.
 */
export function planWave(input: WaveInput): WavePlan {
  const prepared = prepareWave(input);
  return reportWave(prepared, solveAssignment(prepared.problem));
}

/** Everything up to the assignment: convert, de-duplicate, gate, score, and build the problem. */
export function prepareWave(input: WaveInput): PreparedWave {
  validateGroups(input.groups);
  const { policy, currency } = input;
  const weights = resolveWeights(policy.allocationWeights);
  const gates = gatesFor(policy.constraints, currency);
  const facts = new Map<HotelOffer, OfferFacts>(
    input.offers.map((offer) => [
      offer,
      {
        distanceKm: greatCircleKm(input.airport, offer),
        nightlyRate: convert(offer.nightlyRate, currency, input.rates),
      },
    ]),
  );
  const factsOf = (offer: HotelOffer) => facts.get(offer)!;

  const tiers = policy.tiers ?? [];
  const groups = input.groups.filter((g) => tiers.length === 0 || tiers.includes(g.tier));
  const uncoveredGroups = input.groups.filter((g) => tiers.length > 0 && !tiers.includes(g.tier));
  const demandRooms = groups.reduce((sum, g) => sum + g.rooms, 0);
  const shareOfDemand = (offer: HotelOffer) => (demandRooms > 0 ? offer.roomsAvailable / demandRooms : 0);

  const offerVerdicts: RankingInput[] = [];
  const taking: Omit<HotelCandidate, "score">[] = [];
  const hotels = dedupOffers(input.offers, (offer) => factsOf(offer).nightlyRate?.amountMinor ?? Infinity);
  for (const hotel of hotels) {
    const eligible: HotelOffer[] = [];
    for (const offer of hotel.offers) {
      const gateReasons = discardReasons(offer, factsOf(offer), gates);
      if (gateReasons.length === 0) eligible.push(offer);
      const reasons: CandidateReason[] =
        gateReasons.length > 0
          ? gateReasons
          : eligible.length > 1
            ? [`duplicate-of:${eligible[0]!.providerOfferId}`]
            : [];
      if (reasons.length > 0) {
        offerVerdicts.push(
          discardedOffer(hotel.hotelUrn, offer, factsOf(offer), shareOfDemand(offer), reasons),
        );
      }
    }
    const [primary, ...alternatives] = eligible;
    if (!primary) continue;
    const { distanceKm, nightlyRate } = factsOf(primary);
    taking.push({
      hotelUrn: hotel.hotelUrn,
      offer: primary,
      alternatives,
      nightlyRate: nightlyRate!,
      marketNightlyRate:
        primary.isDirectContract && primary.marketNightlyRate
          ? (convert(primary.marketNightlyRate, currency, input.rates) ?? null)
          : null,
      distanceKm,
      consolidation: shareOfDemand(primary),
    });
  }

  const { maxNightlyRate, maxDistanceKm } = policy.constraints;
  const figures = taking.map((c) => ({
    nightlyRateMinor: c.nightlyRate.amountMinor,
    distanceKm: c.distanceKm,
    roomsAvailable: c.offer.roomsAvailable,
  }));
  const scale = scoreScale(
    {
      rateMinor: maxNightlyRate === undefined ? undefined : fromMajor(maxNightlyRate, currency).amountMinor,
      distanceKm: maxDistanceKm,
    },
    figures,
    demandRooms,
  );
  const candidates = taking.map((c, i) => ({ ...c, score: scoreHotel(figures[i]!, scale, weights) }));
  return {
    problem: assignmentProblem(groups, candidates),
    currency,
    groups,
    candidates,
    offerVerdicts,
    uncoveredGroups,
  };
}

/** The verdict on an offer that takes part for no group: gated out, or a costlier duplicate. */
function discardedOffer(
  hotelUrn: string,
  offer: HotelOffer,
  facts: OfferFacts,
  consolidation: number,
  reasons: CandidateReason[],
): RankingInput {
  return {
    classId: null,
    groupIds: null,
    hotelUrn,
    provider: offer.provider,
    providerOfferId: offer.providerOfferId,
    raw: { cost: null, nightlyRate: facts.nightlyRate ?? null, distanceKm: facts.distanceKm, consolidation },
    normalized: null,
    weightedScore: null,
    outcome: "discarded",
    reasons,
  };
}

/**
 * cost[g][h] = room-nights x weighted score, so the objective's cost term is proportional to the
 * wave's total cost and each room-night counts the same. Leaving a group out costs more per room
 * than the whole wave's score could ever add up to (every score is at most 1 per room-night), so
 * housing one more room always wins over any saving in score. The costs go as their two factors,
 * not as a matrix (160 MB at a hub meltdown's 10,000 groups x 2,000 hotels).
 */
function assignmentProblem(
  groups: readonly WaveGroup[],
  candidates: readonly HotelCandidate[],
): AssignmentProblem {
  const groupRooms = Float64Array.from(groups, (g) => g.rooms);
  const roomNights = Float64Array.from(groups, (g) => g.rooms * g.nights);
  const hotelCapacity = Float64Array.from(candidates, (c) => c.offer.roomsAvailable);
  const score = Float64Array.from(candidates, (c) => c.score.weightedScore);
  let totalRoomNights = 0;
  for (let g = 0; g < groups.length; g++) totalRoomNights += roomNights[g]!;
  return {
    groupRooms,
    hotelCapacity,
    unassignedCost: Float64Array.from(groups, (g) => g.rooms * (1 + totalRoomNights)),
    factors: { groupWeight: roomNights, hotelScore: score },
  };
}

/** Turns a solved assignment into the wave's record: allocations, left-out groups, verdicts, totals. */
export function reportWave(prepared: PreparedWave, assignment: Assignment): WavePlan {
  const { groups, candidates, currency } = prepared;
  const residual = candidates.map((c) => c.offer.roomsAvailable);
  groups.forEach((group, g) => {
    const h = assignment.hotelOf[g]!;
    if (h >= 0) residual[h]! -= group.rooms;
  });

  const allocations: Allocation[] = [];
  const unallocated: WavePlan["unallocated"][number][] = prepared.uncoveredGroups.map((group) => ({
    groupId: group.groupId,
    reason: "tier-not-covered" as const,
  }));
  let totalCost = money(0, currency);
  let savingsVsMarket = money(0, currency);
  groups.forEach((group, g) => {
    const chosen = assignment.hotelOf[g]!;
    if (chosen < 0) {
      unallocated.push({ groupId: group.groupId, reason: unallocatedReason(group, candidates) });
      return;
    }
    const candidate = candidates[chosen]!;
    const roomNights = group.rooms * group.nights;
    const cost = times(candidate.nightlyRate, roomNights);
    // A direct contract's saving may be negative (the market was cheaper that night); it is kept.
    const saving = candidate.marketNightlyRate
      ? times(minus(candidate.marketNightlyRate, candidate.nightlyRate), roomNights)
      : null;
    totalCost = plus(totalCost, cost);
    if (saving) savingsVsMarket = plus(savingsVsMarket, saving);
    allocations.push({
      groupId: group.groupId,
      hotelUrn: candidate.hotelUrn,
      provider: candidate.offer.provider,
      providerOfferId: candidate.offer.providerOfferId,
      alternativeOfferIds: candidate.alternatives.map((o) => o.providerOfferId),
      rooms: group.rooms,
      nights: group.nights,
      cost,
      savingsVsMarket: saving,
    });
  });
  const classes = rankingClasses(groups);
  return {
    rankingClasses: classes.map(({ members, ...rankingClass }) => rankingClass),
    rankingInputs: [...prepared.offerVerdicts, ...classVerdicts(classes, assignment.hotelOf, candidates, residual)],
    allocations,
    unallocated,
    totalCost,
    savingsVsMarket,
  };
}

/** The wave's classes of groups (same rooms, same nights), in the order the wave first names them. */
function rankingClasses(groups: readonly WaveGroup[]): (RankingClass & { members: number[] })[] {
  const classes = new Map<string, RankingClass & { members: number[] }>();
  groups.forEach((group, g) => {
    const classId = rankingClassId(group);
    const known = classes.get(classId);
    if (known) {
      known.groupIds.push(group.groupId);
      known.members.push(g);
    } else {
      classes.set(classId, {
        classId,
        rooms: group.rooms,
        nights: group.nights,
        groupIds: [group.groupId],
        members: [g],
      });
    }
  });
  return [...classes.values()];
}

/**
 * The verdicts of every class on every hotel, class by class, hotels in problem order: the class's
 * groups placed in the hotel, then the rest of the class, whose verdict depends only on the rooms
 * they need. A class's rows name no group but those placed, so the record grows with classes x
 * hotels, not groups x hotels.
 */
function classVerdicts(
  classes: readonly (RankingClass & { members: readonly number[] })[],
  hotelOf: ArrayLike<number>,
  candidates: readonly HotelCandidate[],
  residual: readonly number[],
): RankingInput[] {
  const verdicts: RankingInput[] = [];
  for (const { classId, rooms, nights, groupIds, members } of classes) {
    const placed = new Map<number, string[]>();
    members.forEach((g, i) => {
      const h = hotelOf[g]!;
      if (h < 0) return;
      const here = placed.get(h);
      if (here) here.push(groupIds[i]!);
      else placed.set(h, [groupIds[i]!]);
    });
    for (let h = 0; h < candidates.length; h++) {
      const candidate = candidates[h]!;
      const here = placed.get(h);
      if (here) verdicts.push(classVerdict(candidate, classId, rooms * nights, here, "selected", "assigned"));
      if (here?.length === members.length) continue;
      const reason =
        rooms > candidate.offer.roomsAvailable
          ? "not-enough-rooms"
          : residual[h]! < rooms
            ? "hotel-full"
            : "better-score-elsewhere";
      verdicts.push(classVerdict(candidate, classId, rooms * nights, null, "discarded", reason));
    }
  }
  return verdicts;
}

function classVerdict(
  candidate: HotelCandidate,
  classId: string,
  roomNights: number,
  groupIds: string[] | null,
  outcome: RankingInput["outcome"],
  reason: CandidateReason,
): RankingInput {
  return {
    classId,
    groupIds,
    hotelUrn: candidate.hotelUrn,
    provider: candidate.offer.provider,
    providerOfferId: candidate.offer.providerOfferId,
    raw: {
      cost: times(candidate.nightlyRate, roomNights),
      nightlyRate: candidate.nightlyRate,
      distanceKm: candidate.distanceKm,
      consolidation: candidate.consolidation,
    },
    normalized: candidate.score.normalized,
    weightedScore: candidate.score.weightedScore,
    outcome,
    reasons: [reason],
  };
}

function unallocatedReason(group: WaveGroup, candidates: readonly HotelCandidate[]): UnallocatedReason {
  if (candidates.length === 0) return "no-policy-compliant-hotel";
  if (candidates.every((c) => c.offer.roomsAvailable < group.rooms)) return "no-hotel-with-enough-rooms";
  return "capacity-exhausted";
}

function validateGroups(groups: readonly WaveGroup[]): void {
  const seen = new Set<string>();
  for (const group of groups) {
    const problem = !group.groupId
      ? "groupId must not be empty"
      : seen.has(group.groupId)
        ? `groupId ${group.groupId} appears twice`
        : !Number.isSafeInteger(group.rooms) || group.rooms <= 0
          ? `group ${group.groupId} must need a positive whole number of rooms`
          : !Number.isSafeInteger(group.nights) || group.nights <= 0
            ? `group ${group.groupId} must stay a positive whole number of nights`
            : undefined;
    if (problem) throw new DomainError("invalid", "invalid-wave-group", problem);
    seen.add(group.groupId);
  }
}
