import { DomainError } from "../domain-error.js";
import { SeededRandom } from "../seeded-random.js";

/**
 * The assignment of a wave's groups to hotels.
 *
 * Objective (minimized), with x[g][h] = 1 when group g is placed in hotel h:
 *
 *     sum over g, h of cost[g][h] * x[g][h]  +  sum over g of unassignedCost[g] * (1 - sum over h of x[g][h])
 *
 * subject to
 *     sum over h of x[g][h] <= 1                             a group stays in one hotel, or is left out
 *     sum over g of groupRooms[g] * x[g][h] <= capacity[h]   rooms available per hotel
 *     x[g][h] = 0 where cost[g][h] is Infinity               a pair the caller ruled out
 *     x binary                                               a group is never split
 *
 * The wave fills the costs as (see wave.ts and README.md):
 *     cost[g][h]        = rooms[g] * nights[g] * weightedScore[h]
 *     weightedScore[h]  = w_cost * normCost[h] + w_distance * normDistance[h] + w_consolidation * (1 - consolidation[h])
 *     unassignedCost[g] = rooms[g] * (1 + total room-nights of the wave)
 * so every term is linear and the problem is a generalized assignment problem. The unassigned
 * penalty per room exceeds the largest possible total score, which makes the objective
 * lexicographic: first house as many rooms as capacity allows, then minimize the score.
 *
 * Method:
 * 1. Two constructions, each followed by local search; the better result is kept. Waves above
 *    SPREAD_CONSTRUCTION_WORK (groups x hotels) get the one by regret only.
 *    - By spread: groups pick, cheapest hotel with room first, in order of how much they stand
 *      to lose per room between their cheapest and their average option. In a wave that is
 *      multi-night groups before one-night groups, so the cheapest hotels go to the room-nights
 *      that weigh most. Groups left out go to the front and the construction is repeated
 *      (at most CONSTRUCTION_RETRIES times), which fixes packings that shut out a big group.
 *    - By regret: repeatedly place the group that loses most if its best hotel that still fits
 *      were taken away (second-best cost - best cost, with "left out" as the fallback). Groups
 *      with a single option go first.
 * 2. Local search to a local optimum of three neighbourhoods: move a group (or a left-out group)
 *    to a better hotel with room; eject a placed group to another hotel to make room for a
 *    left-out group; and re-split, for each pair of hotels and for each hotel paired with "left
 *    out", the groups the two hold between them, exactly, by dynamic programming over the rooms
 *    used in one of them (this covers every move, swap and k-for-m exchange between the two).
 *    A pair is re-examined only when one of its sides changed, and skipped when its linear
 *    relaxation shows no gain.
 *    When the problem carries its factors (cost = group weight x hotel score, as a wave's does),
 *    most of that work is settled from per-hotel figures instead: a pair whose better hotel is
 *    full of groups at least as heavy per room as any in the worse one cannot gain, and a group
 *    whose lower-scoring hotels have no room for it cannot move. Hotels are then ranked once, by
 *    score, and groups of the same rooms share one list. The assignment is the same as from the
 *    cost matrix alone (the tests check it); only work that could not pay is skipped.
 * 3. On waves small enough for it to be cheap (groups x hotels x perturbations within
 *    PERTURBATION_WORK), iterated local search: empty two hotels, refill, improve, keep if better.
 * 4. Waves of at most EXACT_SEARCH_MAX_GROUPS groups are then solved exactly by depth-first
 *    branch and bound seeded with that solution, within a node budget; `provenOptimal` says
 *    whether the search finished.
 *
 * bench/allocation.ts measures the method against the exact optimum from HiGHS on waves of up to
 * 10,000 groups x 2,000 hotels; test/unit/allocation-assignment.test.ts checks the method against
 * exhaustive enumeration.
 */
export interface AssignmentProblem {
  /** Rooms each group needs; positive integers. */
  readonly groupRooms: ArrayLike<number>;
  /** Rooms each hotel has available; non-negative integers. */
  readonly hotelCapacity: ArrayLike<number>;
  /**
   * cost[g * hotelCount + h]; Infinity rules the pair out. May be left out when `factors` give
   * the costs: a wave does, since at 10,000 groups x 2,000 hotels the matrix alone is 160 MB.
   */
  readonly cost?: Float64Array;
  /** What leaving each group out costs; finite. */
  readonly unassignedCost: ArrayLike<number>;
  /**
   * Present when cost[g][h] = groupWeight[g] * hotelScore[h] wherever group g fits in hotel h
   * (groupRooms[g] <= hotelCapacity[h]) and Infinity elsewhere, as in a wave. The search then
   * rules out most pairs of hotels without looking at their groups (see `pairCannotImprove`);
   * the answer is the same as without it. With `cost` too, both must agree.
   */
  readonly factors?: {
    readonly groupWeight: ArrayLike<number>;
    readonly hotelScore: ArrayLike<number>;
  };
}

export interface Assignment {
  /** Hotel index per group; -1 when the group is left out. */
  readonly hotelOf: Int32Array;
  readonly objective: number;
  /** True when branch and bound finished, so no assignment has a lower objective. */
  readonly provenOptimal: boolean;
}

export interface AssignmentOptions {
  /** Nodes the exact search may visit on a small wave; 0 turns it off. */
  readonly exactSearchNodeBudget?: number;
}

export const EXACT_SEARCH_MAX_GROUPS = 12;
const DEFAULT_EXACT_SEARCH_NODE_BUDGET = 200_000;
const CONSTRUCTION_RETRIES = 10;
const MAX_LOCAL_SEARCH_ROUNDS = 50;
const MAX_PERTURBATIONS = 100;
/** Perturbations run while groups x hotels x perturbations stays under this: many on small waves, none on big ones. */
const PERTURBATION_WORK = 200_000;
/**
 * The construction by spread runs while groups x hotels stays under this. Above it, on a hub
 * meltdown's wave (10,000 x 1,700), its local search took three quarters of the solver's time and
 * ended 0.04 % above the construction by regret, which was the better start on every wave of
 * bench/allocation.ts from 1,000 x 300 up.
 */
const SPREAD_CONSTRUCTION_WORK = 4_000_000;
const UNASSIGNED = -1;

export function solveAssignment(problem: AssignmentProblem, options: AssignmentOptions = {}): Assignment {
  validate(problem);
  const search = new Search(problem);
  let kept: Int32Array | undefined;
  let keptObjective = Infinity;
  const size = Math.max(1, search.groupCount * problem.hotelCapacity.length);
  const constructions = [() => search.constructBySpread(), () => search.constructByRegret()];
  for (const construct of size <= SPREAD_CONSTRUCTION_WORK ? constructions : constructions.slice(1)) {
    search.clear();
    construct();
    search.improveLocally();
    const objective = objectiveOf(problem, search.hotelOf);
    if (improves(objective, keptObjective)) {
      kept = Int32Array.from(search.hotelOf);
      keptObjective = objective;
    }
  }
  search.restore(kept!);
  search.perturbAndImprove(Math.min(MAX_PERTURBATIONS, Math.floor(PERTURBATION_WORK / size)));
  let provenOptimal = false;
  const budget = options.exactSearchNodeBudget ?? DEFAULT_EXACT_SEARCH_NODE_BUDGET;
  if (budget > 0 && search.groupCount <= EXACT_SEARCH_MAX_GROUPS) {
    provenOptimal = search.branchAndBound(budget);
  }
  return { hotelOf: search.hotelOf, objective: objectiveOf(problem, search.hotelOf), provenOptimal };
}

/** The objective of any assignment; for checks and benchmarks. */
export function objectiveOf(problem: AssignmentProblem, hotelOf: ArrayLike<number>): number {
  let total = 0;
  for (let g = 0; g < problem.groupRooms.length; g++) {
    const h = hotelOf[g]!;
    total += h === UNASSIGNED ? problem.unassignedCost[g]! : pairCost(problem, g, h);
  }
  return total;
}

/** What placing group g in hotel h costs (Infinity when ruled out), from the matrix or the factors. */
export function pairCost(problem: AssignmentProblem, g: number, h: number): number {
  if (problem.cost) return problem.cost[g * problem.hotelCapacity.length + h]!;
  const { groupWeight, hotelScore } = problem.factors!;
  return problem.groupRooms[g]! <= problem.hotelCapacity[h]! ? groupWeight[g]! * hotelScore[h]! : Infinity;
}

function validate(problem: AssignmentProblem): void {
  const groups = problem.groupRooms.length;
  const hotels = problem.hotelCapacity.length;
  const fail = (message: string) => {
    throw new DomainError("invalid", "invalid-assignment-problem", message);
  };
  if (!problem.cost && !problem.factors) fail("cost or factors must give the costs");
  if (problem.cost && problem.cost.length !== groups * hotels)
    fail("cost must hold one entry per group and hotel");
  if (problem.unassignedCost.length !== groups) fail("unassignedCost must hold one entry per group");
  for (let g = 0; g < groups; g++) {
    const rooms = problem.groupRooms[g]!;
    if (!Number.isSafeInteger(rooms) || rooms <= 0)
      fail(`group ${g} must need a positive whole number of rooms`);
    if (!Number.isFinite(problem.unassignedCost[g]!)) fail(`group ${g} must have a finite unassigned cost`);
  }
  for (let h = 0; h < hotels; h++) {
    const capacity = problem.hotelCapacity[h]!;
    if (!Number.isSafeInteger(capacity) || capacity < 0) fail(`hotel ${h} must have a whole number of rooms`);
  }
  if (problem.factors) {
    validateFactors(problem, problem.factors, fail);
    return;
  }
  const cost = problem.cost!;
  for (let i = 0; i < cost.length; i++) {
    if (Number.isNaN(cost[i]!) || cost[i] === -Infinity) fail("cost must be a number or Infinity");
  }
}

/** The search trusts the factors to skip work, so they must describe the cost matrix (if any) exactly. */
function validateFactors(
  problem: AssignmentProblem,
  { groupWeight, hotelScore }: NonNullable<AssignmentProblem["factors"]>,
  fail: (message: string) => never,
): void {
  const groups = problem.groupRooms.length;
  const hotels = problem.hotelCapacity.length;
  if (groupWeight.length !== groups || hotelScore.length !== hotels) {
    fail("factors must hold one weight per group and one score per hotel");
  }
  for (let h = 0; h < hotels; h++) {
    if (!Number.isFinite(hotelScore[h]!)) fail(`hotel ${h} must have a finite score`);
  }
  for (let g = 0; g < groups; g++) {
    const weight = groupWeight[g]!;
    if (!Number.isFinite(weight) || weight < 0) fail(`group ${g} must have a finite, non-negative weight`);
    if (!problem.cost) continue;
    for (let h = 0; h < hotels; h++) {
      const expected =
        problem.groupRooms[g]! <= problem.hotelCapacity[h]! ? weight * hotelScore[h]! : Infinity;
      if (problem.cost[g * hotels + h] !== expected)
        fail(`cost of group ${g} in hotel ${h} must match the factors`);
    }
  }
}

/** True when `next` is lower than `current` by more than rounding noise, so searches cannot cycle. */
function improves(next: number, current: number): boolean {
  if (current === Infinity) return next < Infinity;
  return current - next > tolerance(current);
}

function tolerance(value: number): number {
  return 1e-9 * Math.max(1, Math.abs(value));
}

class Search {
  readonly groupCount: number;
  readonly hotelOf: Int32Array;
  private readonly hotelCount: number;
  private readonly rooms: Int32Array;
  private readonly capacity: Int32Array;
  private readonly residual: Int32Array;
  /** The cost matrix when the problem has one; else costs come from the factors. */
  private readonly cost: Float64Array | undefined;
  private readonly weight: Float64Array | undefined;
  private readonly score: Float64Array | undefined;
  private readonly leftOut: Float64Array;
  /**
   * Hotels each group may use, cheapest first: candidates[candidateStart[g] .. candidateEnd[g]].
   * Groups with the same list share one range.
   */
  private readonly candidateStart: Int32Array;
  private readonly candidateEnd: Int32Array;
  private readonly candidates: Int32Array;
  /** Which list each group reads (groups sharing a range share its number), and how many lists. */
  private readonly listOf: Int32Array;
  private listCount = 0;
  /**
   * While constructing (rooms only taken, never freed): per list, the position before which no
   * hotel has room for the list's groups, so the groups after the first need not read them again.
   */
  private noFitBefore: Int32Array | undefined;
  private pairChecks: PairChecks | undefined;
  /** Counts placements; a hotel's stamp is the count when its groups last changed. */
  private clock = 0;
  private readonly changedAt: Int32Array;
  /** The clock when a group last joined or left the left-out set. */
  private leftOutChangedAt = 0;
  private readonly ratioBuffer: Float64Array;
  private readonly orderBuffer: Int32Array;
  private dpBest = new Float64Array(0);
  private dpChoice = new Uint8Array(0);
  private readonly factors: AssignmentProblem["factors"];
  /** With factors: per hotel, the lowest and highest weight per room among its groups. */
  private readonly lowestDensity: Float64Array;
  private readonly highestDensity: Float64Array;
  /** With factors: per hotel, how many groups it holds (as of the last measureDensities). */
  private readonly memberCount: Int32Array;
  /** With factors: hotels by score, lowest first, and each hotel's position in that order. */
  private readonly byScore: Int32Array | undefined;
  private readonly scoreRank: Int32Array | undefined;

  constructor(problem: AssignmentProblem) {
    this.groupCount = problem.groupRooms.length;
    this.hotelCount = problem.hotelCapacity.length;
    this.rooms = Int32Array.from(problem.groupRooms);
    this.capacity = Int32Array.from(problem.hotelCapacity);
    this.residual = Int32Array.from(problem.hotelCapacity);
    this.cost = problem.cost;
    this.weight = problem.factors && Float64Array.from(problem.factors.groupWeight);
    this.score = problem.factors && Float64Array.from(problem.factors.hotelScore);
    this.leftOut = Float64Array.from(problem.unassignedCost);
    this.hotelOf = new Int32Array(this.groupCount).fill(UNASSIGNED);
    this.changedAt = new Int32Array(this.hotelCount);
    this.ratioBuffer = new Float64Array(this.groupCount);
    this.orderBuffer = new Int32Array(this.groupCount);
    this.factors = problem.factors;
    this.lowestDensity = new Float64Array(this.hotelCount);
    this.highestDensity = new Float64Array(this.hotelCount);
    this.memberCount = new Int32Array(this.hotelCount);
    if (this.factors) {
      const { hotelScore } = this.factors;
      this.byScore = Int32Array.from({ length: this.hotelCount }, (_, h) => h).sort(
        (a, b) => hotelScore[a]! - hotelScore[b]! || a - b,
      );
      this.scoreRank = new Int32Array(this.hotelCount);
      this.byScore.forEach((h, k) => {
        this.scoreRank![h] = k;
      });
    }
    this.candidateStart = new Int32Array(this.groupCount);
    this.candidateEnd = new Int32Array(this.groupCount);
    this.listOf = new Int32Array(this.groupCount);
    this.candidates = this.rankCandidates();
  }

  /**
   * Each group's usable hotels (allowed, big enough, cheaper than leaving the group out), by cost;
   * fills candidateStart and candidateEnd and returns the shared array. A group whose costs are
   * already in the previous group's order reuses it after a linear check: in a wave a hotel's
   * score does not depend on the group, so one sort serves every group. With factors the order
   * is known: by score, then hotel, which is every group's order by cost (two scores a rounding
   * apart could tie in cost and be listed by score rather than by hotel; either is cheapest
   * first). Groups of the same rooms that every hotel they fit in beats leaving out then share
   * one range: a wave has a handful of such classes, not a list per group.
   */
  private rankCandidates(): Int32Array {
    const { groupCount, hotelCount, rooms, capacity, leftOut, candidateStart, candidateEnd } = this;
    let flat = new Int32Array(4 * hotelCount);
    let total = 0;
    const append = (h: number) => {
      if (total === flat.length) {
        const grown = new Int32Array(2 * flat.length);
        grown.set(flat);
        flat = grown;
      }
      flat[total++] = h;
    };
    let order = this.byScore ?? Int32Array.from({ length: hotelCount }, (_, h) => h);
    const shared = new Map<number, { start: number; end: number; highestScore: number; list: number }>();
    for (let g = 0; g < groupCount; g++) {
      const need = rooms[g]!;
      if (this.factors) {
        let byRooms = shared.get(need);
        if (!byRooms) {
          const start = total;
          let highestScore = -Infinity;
          for (const h of order) {
            if (need > capacity[h]!) continue;
            append(h);
            highestScore = this.factors.hotelScore[h]!;
          }
          byRooms = { start, end: total, highestScore, list: this.listCount++ };
          shared.set(need, byRooms);
        }
        if (this.factors.groupWeight[g]! * byRooms.highestScore < leftOut[g]!) {
          candidateStart[g] = byRooms.start;
          candidateEnd[g] = byRooms.end;
          this.listOf[g] = byRooms.list;
          continue;
        }
      } else if (!this.isSortedBy(order, g)) {
        order = Int32Array.from(order).sort(
          (a, b) => this.placementCost(g, a) - this.placementCost(g, b) || a - b,
        );
      }
      candidateStart[g] = total;
      this.listOf[g] = this.listCount++;
      for (let i = 0; i < hotelCount; i++) {
        const h = order[i]!;
        if (need <= capacity[h]! && this.placementCost(g, h) < leftOut[g]!) append(h);
      }
      candidateEnd[g] = total;
    }
    return flat.subarray(0, total);
  }

  clear(): void {
    for (let g = 0; g < this.groupCount; g++) this.place(g, UNASSIGNED);
  }

  /** Returns to an earlier assignment, touching only the groups that moved since. */
  restore(hotelOf: Int32Array): void {
    for (let g = 0; g < this.groupCount; g++) if (this.hotelOf[g] !== hotelOf[g]) this.place(g, UNASSIGNED);
    for (let g = 0; g < this.groupCount; g++) this.place(g, hotelOf[g]!);
  }

  /**
   * Iterated local search: empties the hotel of a random group and one other hotel of that
   * group's list, puts their groups (and the left-out ones) back in random order, cheapest hotel
   * with room first, improves locally again, and keeps the result only when it is better.
   * Seeded, so a wave always gets the same answer.
   */
  perturbAndImprove(iterations: number): void {
    if (iterations === 0) return;
    const checks = this.newPairChecks();
    this.improveLocally(checks);
    const random = new SeededRandom(0x9e3779b9);
    let kept = Int32Array.from(this.hotelOf);
    let keptObjective = this.objective();
    for (let i = 0; i < iterations; i++) {
      const g = Math.floor(random.next() * this.groupCount);
      const first = this.candidateStart[g]!;
      const count = this.candidateEnd[g]! - first;
      if (count < 2) continue;
      const a = this.hotelOf[g] === UNASSIGNED ? this.candidates[first]! : this.hotelOf[g]!;
      let b = this.candidates[first + Math.floor(random.next() * count)]!;
      if (b === a) b = this.candidates[a === this.candidates[first] ? first + 1 : first]!;
      const freed: number[] = [];
      for (let other = 0; other < this.groupCount; other++) {
        const h = this.hotelOf[other]!;
        if (h === a || h === b || h === UNASSIGNED) freed.push(other);
      }
      for (let k = freed.length - 1; k > 0; k--) {
        const j = Math.floor(random.next() * (k + 1));
        [freed[k], freed[j]] = [freed[j]!, freed[k]!];
      }
      for (const other of freed) this.place(other, UNASSIGNED);
      for (const other of freed) {
        const at = this.firstFit(other, this.candidateStart[other]!);
        if (at < this.candidateEnd[other]!) this.place(other, this.candidates[at]!);
      }
      this.improveLocally(checks);
      const objective = this.objective();
      if (improves(objective, keptObjective)) {
        kept = Int32Array.from(this.hotelOf);
        keptObjective = objective;
      } else this.restore(kept);
    }
  }

  private costOf(g: number, h: number): number {
    return h === UNASSIGNED ? this.leftOut[g]! : this.placementCost(g, h);
  }

  /** As pairCost: from the matrix, or else the factors (the same figures: validate checks it). */
  private placementCost(g: number, h: number): number {
    if (this.cost) return this.cost[g * this.hotelCount + h]!;
    return this.rooms[g]! <= this.capacity[h]! ? this.weight![g]! * this.score![h]! : Infinity;
  }

  /**
   * True when g's finite costs, read in `order`, never decrease and equal costs come in hotel
   * order, so g's list is by (cost, hotel) whatever the groups before it. Ruled-out hotels
   * (Infinity) are ignored: they are filtered out of the group's list anyway.
   */
  private isSortedBy(order: Int32Array, g: number): boolean {
    let previous = -Infinity;
    let previousHotel = -1;
    for (let i = 0; i < order.length; i++) {
      const h = order[i]!;
      const c = this.placementCost(g, h);
      if (c === Infinity) continue;
      if (c < previous || (c === previous && h < previousHotel)) return false;
      previous = c;
      previousHotel = h;
    }
    return true;
  }

  private place(g: number, h: number): void {
    const from = this.hotelOf[g]!;
    if (from === h) return;
    this.clock++;
    if (from === UNASSIGNED || h === UNASSIGNED) this.leftOutChangedAt = this.clock;
    if (from !== UNASSIGNED) {
      this.residual[from]! += this.rooms[g]!;
      this.changedAt[from] = this.clock;
    }
    if (h !== UNASSIGNED) {
      this.residual[h]! -= this.rooms[g]!;
      this.changedAt[h] = this.clock;
    }
    this.hotelOf[g] = h;
  }

  /** First position at or after `from` in g's list whose hotel still has room for g. */
  private firstFit(g: number, from: number): number {
    const end = this.candidateEnd[g]!;
    const need = this.rooms[g]!;
    const noFitBefore = this.noFitBefore;
    const list = this.listOf[g]!;
    const known = noFitBefore ? noFitBefore[list]! : -1;
    let at = Math.max(from, known);
    while (at < end && this.residual[this.candidates[at]!]! < need) at++;
    // Every position from the list's start to `at` was then found full: remembered when read
    // from the known frontier on (a group of the list needs what every other one does).
    if (noFitBefore && from <= known) noFitBefore[list] = at;
    return at;
  }

  /** Starts a construction: rooms are only taken until it ends. */
  private beginConstruction(): void {
    this.clear();
    const noFitBefore = new Int32Array(this.listCount);
    this.noFitBefore = noFitBefore;
    for (let g = 0; g < this.groupCount; g++) noFitBefore[this.listOf[g]!] = this.candidateStart[g]!;
  }

  private endConstruction(): void {
    this.noFitBefore = undefined;
  }

  constructBySpread(): void {
    const { groupCount, candidates, candidateStart, candidateEnd } = this;
    const spread = new Float64Array(groupCount);
    // Groups of one list with the same weight have the same costs: their spread is read once.
    const known = new Map<number, Map<number, number>>();
    for (let g = 0; g < groupCount; g++) {
      const first = candidateStart[g]!;
      const end = candidateEnd[g]!;
      if (first === end) continue;
      const byWeight = this.weight && (known.get(this.listOf[g]!) ?? new Map<number, number>());
      const seen = byWeight?.get(this.weight![g]!);
      if (seen !== undefined) {
        spread[g] = seen;
        continue;
      }
      let sum = 0;
      for (let at = first; at < end; at++) sum += this.costOf(g, candidates[at]!);
      spread[g] = (sum / (end - first) - this.costOf(g, candidates[first]!)) / this.rooms[g]!;
      if (byWeight) {
        byWeight.set(this.weight![g]!, spread[g]!);
        known.set(this.listOf[g]!, byWeight);
      }
    }
    let order = Array.from({ length: groupCount }, (_, g) => g).sort(
      (a, b) => spread[b]! - spread[a]! || this.rooms[b]! - this.rooms[a]! || a - b,
    );
    let kept = Int32Array.from(this.hotelOf);
    let keptObjective = Infinity;
    for (let attempt = 0; attempt < CONSTRUCTION_RETRIES; attempt++) {
      this.beginConstruction();
      for (const g of order) {
        const at = this.firstFit(g, candidateStart[g]!);
        if (at < candidateEnd[g]!) this.place(g, candidates[at]!);
      }
      this.endConstruction();
      const objective = this.objective();
      if (improves(objective, keptObjective)) {
        kept = Int32Array.from(this.hotelOf);
        keptObjective = objective;
      }
      const shutOut = order.filter(
        (g) => this.hotelOf[g] === UNASSIGNED && candidateStart[g]! < candidateEnd[g]!,
      );
      if (shutOut.length === 0) break;
      const first = new Set(shutOut);
      order = [...shutOut, ...order.filter((g) => !first.has(g))];
    }
    this.restore(kept);
  }

  constructByRegret(): void {
    const { groupCount, candidates, candidateStart, candidateEnd } = this;
    // Residual capacity only shrinks while constructing, so both pointers only move forward.
    const best = Int32Array.from(candidateStart);
    const second = new Int32Array(groupCount);
    const regret = (g: number): number => {
      const end = candidateEnd[g]!;
      best[g] = this.firstFit(g, best[g]!);
      if (best[g] === end) return -1;
      second[g] = this.firstFit(g, Math.max(second[g]!, best[g]! + 1));
      const fallback = second[g] === end ? this.leftOut[g]! : this.costOf(g, candidates[second[g]!]!);
      return fallback - this.costOf(g, candidates[best[g]!]!);
    };
    const queue = new RegretQueue(this.rooms);
    this.beginConstruction();
    for (let g = 0; g < groupCount; g++) {
      const r = regret(g);
      if (r >= 0) queue.push(r, g);
    }
    while (queue.size > 0) {
      const stale = queue.topKey;
      const g = queue.pop();
      const r = regret(g);
      if (r < 0) continue;
      if (r !== stale) {
        queue.push(r, g);
        continue;
      }
      this.place(g, candidates[best[g]!]!);
    }
    this.endConstruction();
  }

  private objective(): number {
    let total = 0;
    for (let g = 0; g < this.groupCount; g++) total += this.costOf(g, this.hotelOf[g]!);
    return total;
  }

  /** Fresh checks, in the one pair of arrays a search reuses (hotels squared: 12 MB at 1,700). */
  private newPairChecks(): PairChecks {
    if (!this.pairChecks) {
      this.pairChecks = {
        pairs: new Int32Array(this.hotelCount * this.hotelCount),
        out: new Int32Array(this.hotelCount),
        since: -1,
      };
    }
    this.pairChecks.pairs.fill(-1);
    this.pairChecks.out.fill(-1);
    this.pairChecks.since = -1;
    return this.pairChecks;
  }

  improveLocally(checks = this.newPairChecks()): void {
    for (let round = 0; round < MAX_LOCAL_SEARCH_ROUNDS; round++) {
      const moved = this.moveToBetterHotels();
      const ejected = this.ejectToMakeRoom();
      const repacked = this.repackPairs(checks);
      if (!moved && !ejected && !repacked) return;
    }
    // Whatever the round limit cut short, end move-optimal: no group could move to a better
    // hotel with room, and no left-out group fits anywhere. Each move lowers the objective, so
    // this ends.
    while (this.moveToBetterHotels());
  }

  /** Moves each group (placed or left out) to the cheapest hotel that has room and beats its current cost. */
  private moveToBetterHotels(): boolean {
    const { groupCount, hotelCount, candidates, candidateStart, candidateEnd, residual, rooms, hotelOf } =
      this;
    let improved = false;
    let roomAhead: Int32Array | undefined;
    for (let g = 0; g < groupCount; g++) {
      const need = rooms[g]!;
      if (this.scoreRank) {
        // With factors, only a hotel with a lower score can beat the current one: when none of
        // them has the rooms, the group's list need not be read.
        roomAhead ??= this.roomAheadByScore();
        const from = hotelOf[g]!;
        if (roomAhead[from === UNASSIGNED ? hotelCount : this.scoreRank[from]!]! < need) continue;
      }
      const current = this.costOf(g, hotelOf[g]!);
      const below = current - tolerance(current);
      for (let at = candidateStart[g]!, end = candidateEnd[g]!; at < end; at++) {
        const h = candidates[at]!;
        if (this.placementCost(g, h) >= below) break;
        if (residual[h]! >= need) {
          this.place(g, h);
          roomAhead = undefined;
          improved = true;
          break;
        }
      }
    }
    return improved;
  }

  /** roomAhead[k]: the most rooms any of the k lowest-scoring hotels has left. */
  private roomAheadByScore(): Int32Array {
    const { hotelCount, byScore, residual } = this;
    const roomAhead = new Int32Array(hotelCount + 1);
    for (let k = 0; k < hotelCount; k++) roomAhead[k + 1] = Math.max(roomAhead[k]!, residual[byScore![k]!]!);
    return roomAhead;
  }

  /**
   * For a left-out group, frees room in one of its hotels by moving one placed group elsewhere.
   * Skips groups too big for any other hotel's free rooms, which keeps this cheap when every
   * hotel is nearly full.
   */
  private ejectToMakeRoom(): boolean {
    const { groupCount, hotelOf, rooms, residual } = this;
    if (!hotelOf.includes(UNASSIGNED)) return false;
    const members = this.membersByHotel();
    let improved = false;
    for (let g = 0; g < groupCount; g++) {
      if (hotelOf[g] !== UNASSIGNED) continue;
      const largestResidual = residual.reduce((a, b) => Math.max(a, b), 0);
      tryHotels: for (let at = this.candidateStart[g]!; at < this.candidateEnd[g]!; at++) {
        const h = this.candidates[at]!;
        const need = rooms[g]! - residual[h]!;
        for (const other of members[h]!) {
          if (hotelOf[other] !== h || rooms[other]! < need || rooms[other]! > largestResidual) continue;
          const target = this.bestOtherHotel(other, h);
          if (target === UNASSIGNED) continue;
          const before = this.leftOut[g]! + this.costOf(other, h);
          const after = this.costOf(g, h) + this.costOf(other, target);
          if (!improves(after, before)) continue;
          this.place(other, target);
          this.place(g, h);
          members[target]!.push(other);
          members[h]!.push(g);
          improved = true;
          break tryHotels;
        }
      }
    }
    return improved;
  }

  /** The cheapest hotel other than `excluded` with room for g, or UNASSIGNED. */
  private bestOtherHotel(g: number, excluded: number): number {
    for (let at = this.candidateStart[g]!; at < this.candidateEnd[g]!; at++) {
      const h = this.candidates[at]!;
      if (h !== excluded && this.residual[h]! >= this.rooms[g]!) return h;
    }
    return UNASSIGNED;
  }

  private membersByHotel(): number[][] {
    const members: number[][] = Array.from({ length: this.hotelCount }, () => []);
    for (let g = 0; g < this.groupCount; g++) {
      const h = this.hotelOf[g]!;
      if (h !== UNASSIGNED) members[h]!.push(g);
    }
    return members;
  }

  /**
   * For each pair of hotels, and for each hotel paired with "left out", re-splits the groups the
   * two hold between them optimally (left out has no room limit). The dynamic program runs over
   * the rooms used in the smaller hotel: best[x] is the lowest cost of the groups seen so far
   * with x rooms of them there and the rest in the other. A pair is skipped when neither side
   * changed since it was last found optimal, when the factors show it cannot improve, or when
   * its linear relaxation cannot improve.
   */
  private repackPairs(checks: PairChecks): boolean {
    const { hotelCount, groupCount, changedAt, hotelOf } = this;
    const members = this.membersByHotel();
    if (this.factors) for (let h = 0; h < hotelCount; h++) this.measureDensities(h, members[h]!);
    const items = new Int32Array(groupCount);
    let improved = false;
    // A pair neither of whose hotels changed since the previous pass over these checks began
    // was settled in that pass (checked, or skipped as settled before) and still is: only pairs
    // touching a changed hotel are read, which after the first pass are a few rows, not all
    // hotels squared. The pairs read, their order and their outcomes are those of reading all.
    const since = checks.since;
    checks.since = this.clock;
    const changed: number[] = [];
    const isChanged = new Uint8Array(hotelCount);
    for (let h = 0; h < hotelCount; h++) {
      if (changedAt[h]! > since) {
        changed.push(h);
        isChanged[h] = 1;
      }
    }
    const markChanged = (h: number) => {
      if (isChanged[h] === 1) return;
      isChanged[h] = 1;
      changed.splice(firstAbove(changed, h), 0, h);
    };
    // With factors a pair they settle is passed over before its check is even read: it is
    // settled again whenever read while neither side changes, so it needs no stamp.
    const settled = (a: number, b: number) => this.factors !== undefined && this.pairCannotImprove(a, b);
    for (let a = 0; a < hotelCount; a++) {
      let from = a + 1;
      if (isChanged[a] === 0) {
        for (let i = firstAbove(changed, a); i < changed.length; i++) {
          const b = changed[i]!;
          if (settled(a, b) || !this.repackPair(a, b, checks.pairs, members, items)) continue;
          improved = true;
          markChanged(a);
          from = b + 1;
          break;
        }
        if (isChanged[a] === 0) continue;
      }
      if (this.factors) {
        if (this.repackRowByFactors(a, from, checks.pairs, members, items, markChanged)) improved = true;
        continue;
      }
      for (let b = from; b < hotelCount; b++) {
        if (!this.repackPair(a, b, checks.pairs, members, items)) continue;
        improved = true;
        markChanged(b);
      }
    }
    const leftOut: number[] = [];
    for (let g = 0; g < groupCount; g++) if (hotelOf[g] === UNASSIGNED) leftOut.push(g);
    for (let h = 0; h < hotelCount && leftOut.length > 0; h++) {
      if (checks.out[h]! >= Math.max(changedAt[h]!, this.leftOutChangedAt)) continue;
      checks.out[h] = this.clock;
      let count = 0;
      for (const g of members[h]!) items[count++] = g;
      for (const g of leftOut)
        if (hotelOf[g] === UNASSIGNED && this.costOf(g, h) < Infinity) items[count++] = g;
      if (this.repack(h, UNASSIGNED, items, count, members)) {
        checks.out[h] = this.clock;
        improved = true;
      }
    }
    return improved;
  }

  /**
   * repackPair for a and every hotel from `from` on, passing over the pairs the factors settle
   * (pairCannotImprove, inlined: the first pass reads every pair of hotels).
   */
  private repackRowByFactors(
    a: number,
    from: number,
    pairCheckedAt: Int32Array,
    members: number[][],
    items: Int32Array,
    markChanged: (h: number) => void,
  ): boolean {
    const { hotelCount, residual, memberCount, lowestDensity, highestDensity } = this;
    const score = this.score!;
    const scoreA = score[a]!;
    let improved = false;
    for (let b = from; b < hotelCount; b++) {
      const scoreB = score[b]!;
      if (scoreB > scoreA) {
        if (memberCount[b] === 0 || (residual[a] === 0 && lowestDensity[a]! >= highestDensity[b]!)) continue;
      } else if (scoreB < scoreA) {
        if (memberCount[a] === 0 || (residual[b] === 0 && lowestDensity[b]! >= highestDensity[a]!)) continue;
      } else continue;
      if (!this.repackPair(a, b, pairCheckedAt, members, items)) continue;
      improved = true;
      markChanged(b);
    }
    return improved;
  }

  /** Re-splits hotels a < b unless settled (see repackPairs); true when it moved any group. */
  private repackPair(
    a: number,
    b: number,
    pairCheckedAt: Int32Array,
    members: number[][],
    items: Int32Array,
  ): boolean {
    const { hotelCount, capacity, changedAt } = this;
    const pair = a * hotelCount + b;
    if (pairCheckedAt[pair]! >= Math.max(changedAt[a]!, changedAt[b]!)) return false;
    if (members[a]!.length + members[b]!.length === 0) return false;
    pairCheckedAt[pair] = this.clock;
    if (this.factors && this.pairCannotImprove(a, b)) return false;
    const small = capacity[a]! <= capacity[b]! ? a : b;
    const big = small === a ? b : a;
    let count = 0;
    for (const g of members[small]!) items[count++] = g;
    for (const g of members[big]!) items[count++] = g;
    if (!this.repack(small, big, items, count, members)) return false;
    pairCheckedAt[pair] = this.clock;
    if (this.factors) {
      this.measureDensities(small, members[small]!);
      this.measureDensities(big, members[big]!);
    }
    return true;
  }

  /** The lowest and highest weight per room among the groups in hotel h, and how many they are. */
  private measureDensities(h: number, groups: readonly number[]): void {
    const weight = this.weight!;
    let lowest = Infinity;
    let highest = -Infinity;
    this.memberCount[h] = groups.length;
    for (const g of groups) {
      const density = weight[g]! / this.rooms[g]!;
      if (density < lowest) lowest = density;
      if (density > highest) highest = density;
    }
    this.lowestDensity[h] = lowest;
    this.highestDensity[h] = highest;
  }

  /**
   * With cost = weight x score, re-splitting two hotels changes the objective by
   * (score[worse] - score[better]) x (weight the better one loses - weight it gains), so it can
   * only improve by moving weight into the better hotel. That is impossible, without looking at
   * the groups, when the scores are equal, when the worse hotel is empty, or when the better one
   * is full of groups carrying at least as much weight per room as any in the worse one: any
   * exchange then trades rooms for rooms at no better rate. In a wave this settles most pairs.
   */
  private pairCannotImprove(a: number, b: number): boolean {
    const score = this.score!;
    const scoreA = score[a]!;
    const scoreB = score[b]!;
    if (scoreA === scoreB) return true;
    const better = scoreA < scoreB ? a : b;
    const worse = better === a ? b : a;
    if (this.memberCount[worse] === 0) return true;
    return this.residual[better] === 0 && this.lowestDensity[better]! >= this.highestDensity[worse]!;
  }

  private capacityOf(h: number): number {
    return h === UNASSIGNED ? Infinity : this.capacity[h]!;
  }

  /** Re-splits `items` between `small` and `big` (a hotel, or UNASSIGNED); true when it moved any. */
  private repack(small: number, big: number, items: Int32Array, count: number, members: number[][]): boolean {
    if (!this.pairMayImprove(items, count, small, big)) return false;
    const { rooms, hotelOf } = this;
    let before = 0;
    let total = 0;
    for (let i = 0; i < count; i++) {
      const g = items[i]!;
      before += this.costOf(g, hotelOf[g]!);
      total += rooms[g]!;
    }
    const cap = this.capacity[small]!;
    const width = cap + 1;
    if (this.dpBest.length < width) this.dpBest = new Float64Array(2 * width);
    if (this.dpChoice.length < count * width) this.dpChoice = new Uint8Array(2 * count * width);
    const best = this.dpBest;
    const choice = this.dpChoice;
    best.fill(Infinity, 0, width);
    best[0] = 0;
    let reach = 0;
    for (let i = 0; i < count; i++) {
      const g = items[i]!;
      const r = rooms[g]!;
      const inSmall = this.costOf(g, small);
      const inBig = this.costOf(g, big);
      reach = Math.min(cap, reach + r);
      const row = i * width;
      for (let x = reach; x >= 0; x--) {
        const viaBig = best[x]! + inBig;
        const viaSmall = x >= r ? best[x - r]! + inSmall : Infinity;
        choice[row + x] = viaSmall < viaBig ? 1 : 0;
        best[x] = Math.min(viaSmall, viaBig);
      }
    }
    let bestX = -1;
    for (let x = Math.max(0, total - this.capacityOf(big)); x <= reach; x++) {
      if (bestX < 0 || best[x]! < best[bestX]!) bestX = x;
    }
    if (bestX < 0 || !improves(best[bestX]!, before)) return false;
    const toSmall: number[] = [];
    const toBig: number[] = [];
    for (let i = count - 1, x = bestX; i >= 0; i--) {
      const g = items[i]!;
      if (choice[i * width + x] === 1) {
        toSmall.push(g);
        x -= rooms[g]!;
      } else toBig.push(g);
    }
    for (const g of toSmall) if (hotelOf[g] !== small) this.place(g, UNASSIGNED);
    for (const g of toBig) if (hotelOf[g] !== big) this.place(g, UNASSIGNED);
    for (const g of toSmall) this.place(g, small);
    for (const g of toBig) this.place(g, big);
    members[small] = toSmall;
    if (big !== UNASSIGNED) members[big] = toBig;
    return true;
  }

  /**
   * The linear relaxation of re-splitting a pair, solved greedily as a fractional knapsack:
   * rooms go to the smaller hotel in order of how much each room saves there. When even the
   * fractional split cannot beat the current one, the dynamic program is skipped. In a wave that
   * is the common case: two full hotels holding groups of the same length of stay.
   */
  private pairMayImprove(items: Int32Array, count: number, small: number, big: number): boolean {
    const { rooms, hotelOf, ratioBuffer, orderBuffer } = this;
    let forcedSmall = 0;
    let forcedBig = 0;
    let freeRooms = 0;
    let fixedCost = 0;
    let before = 0;
    let n = 0;
    for (let i = 0; i < count; i++) {
      const g = items[i]!;
      const inSmall = this.costOf(g, small);
      const inBig = this.costOf(g, big);
      before += hotelOf[g] === small ? inSmall : inBig;
      if (inSmall === Infinity || inBig === Infinity) {
        if (inBig === Infinity) forcedSmall += rooms[g]!;
        else forcedBig += rooms[g]!;
        fixedCost += Math.min(inSmall, inBig);
        continue;
      }
      fixedCost += inBig;
      freeRooms += rooms[g]!;
      const ratio = (inSmall - inBig) / rooms[g]!;
      // Insertion sort by saving per room: pairs hold a handful of groups.
      let at = n++;
      while (at > 0 && ratioBuffer[at - 1]! > ratio) {
        ratioBuffer[at] = ratioBuffer[at - 1]!;
        orderBuffer[at] = orderBuffer[at - 1]!;
        at--;
      }
      ratioBuffer[at] = ratio;
      orderBuffer[at] = g;
    }
    const capacitySmall = this.capacity[small]! - forcedSmall;
    const mustPlaceInSmall = Math.max(0, freeRooms + forcedBig - this.capacityOf(big));
    let used = 0;
    let relaxed = 0;
    for (let i = 0; i < n && used < capacitySmall; i++) {
      const ratio = ratioBuffer[i]!;
      if (ratio >= 0 && used >= mustPlaceInSmall) break;
      const room = rooms[orderBuffer[i]!]!;
      const take = Math.min(room, capacitySmall - used, ratio >= 0 ? mustPlaceInSmall - used : room);
      relaxed += ratio * take;
      used += take;
    }
    return improves(fixedCost + relaxed, before);
  }

  /**
   * Depth-first branch and bound over groups, largest first (they exhaust capacity soonest, so
   * infeasible branches die early), each trying its hotels cheapest first and then "left out".
   * The bound adds every remaining group's cheapest option ignoring capacity. Returns true when
   * the search finished within the budget: the kept assignment is then optimal.
   */
  branchAndBound(nodeBudget: number): boolean {
    const { groupCount, rooms, residual } = this;
    const order = Int32Array.from({ length: groupCount }, (_, g) => g).sort(
      (a, b) => rooms[b]! - rooms[a]! || a - b,
    );
    const floorAfter = new Float64Array(groupCount + 1);
    for (let i = groupCount - 1; i >= 0; i--) {
      const g = order[i]!;
      const start = this.candidateStart[g]!;
      const cheapest = start < this.candidateEnd[g]! ? this.costOf(g, this.candidates[start]!) : Infinity;
      floorAfter[i] = floorAfter[i + 1]! + Math.min(cheapest, this.leftOut[g]!);
    }
    const incumbent = Int32Array.from(this.hotelOf);
    let bestObjective = this.objective();
    this.clear();
    const trial = new Int32Array(groupCount).fill(UNASSIGNED);
    let nodes = 0;
    const visit = (depth: number, sofar: number): boolean => {
      if (++nodes > nodeBudget) return false;
      if (!improves(sofar + floorAfter[depth]!, bestObjective)) return true;
      if (depth === groupCount) {
        bestObjective = sofar;
        incumbent.set(trial);
        return true;
      }
      const g = order[depth]!;
      for (let at = this.candidateStart[g]!; at < this.candidateEnd[g]!; at++) {
        const h = this.candidates[at]!;
        if (residual[h]! < rooms[g]!) continue;
        residual[h]! -= rooms[g]!;
        trial[g] = h;
        const finished = visit(depth + 1, sofar + this.costOf(g, h));
        residual[h]! += rooms[g]!;
        trial[g] = UNASSIGNED;
        if (!finished) return false;
      }
      return visit(depth + 1, sofar + this.leftOut[g]!);
    };
    const finished = visit(0, 0);
    this.restore(incumbent);
    return finished;
  }
}

/**
 * When each pair of hotels (pairs[a * hotelCount + b], a < b) and each hotel paired with "left
 * out" was last found unable to improve, and when the previous pass over them began.
 */
interface PairChecks {
  readonly pairs: Int32Array;
  readonly out: Int32Array;
  /** The clock when the previous pass began; -1 before the first. */
  since: number;
}

/** The position of the first entry above `value` in an ascending list. */
function firstAbove(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (sorted[mid]! <= value) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * Max-heap of (regret, group); on equal regret the larger group, then the lower index, comes first.
 * Holds each group at most once, in typed arrays: a wave pushes and pops tens of thousands.
 */
class RegretQueue {
  private readonly keys: Float64Array;
  private readonly groups: Int32Array;
  private count = 0;

  constructor(private readonly rooms: Int32Array) {
    this.keys = new Float64Array(rooms.length);
    this.groups = new Int32Array(rooms.length);
  }

  get size(): number {
    return this.count;
  }

  /** The regret of the group on top. */
  get topKey(): number {
    return this.keys[0]!;
  }

  push(key: number, group: number): void {
    const { keys, groups } = this;
    let at = this.count++;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!this.before(key, group, keys[parent]!, groups[parent]!)) break;
      keys[at] = keys[parent]!;
      groups[at] = groups[parent]!;
      at = parent;
    }
    keys[at] = key;
    groups[at] = group;
  }

  /** Removes the group on top and returns it. */
  pop(): number {
    const { keys, groups } = this;
    const top = groups[0]!;
    const last = --this.count;
    const key = keys[last]!;
    const group = groups[last]!;
    let at = 0;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= last) break;
      const right = left + 1;
      const child =
        right < last && this.before(keys[right]!, groups[right]!, keys[left]!, groups[left]!) ? right : left;
      if (!this.before(keys[child]!, groups[child]!, key, group)) break;
      keys[at] = keys[child]!;
      groups[at] = groups[child]!;
      at = child;
    }
    keys[at] = key;
    groups[at] = group;
    return top;
  }

  private before(ki: number, gi: number, kj: number, gj: number): boolean {
    if (ki !== kj) return ki > kj;
    const ri = this.rooms[gi]!;
    const rj = this.rooms[gj]!;
    return ri !== rj ? ri > rj : gi < gj;
  }
}
