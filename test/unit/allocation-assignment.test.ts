import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type AssignmentProblem,
  EXACT_SEARCH_MAX_GROUPS,
  objectiveOf,
  pairCost,
  solveAssignment,
} from "../../src/domain/allocation/assignment.js";
import { DomainError } from "../../src/domain/domain-error.js";

/** The optimum by exhaustive enumeration of every hotel (or none) for every group. */
function bruteForce(problem: AssignmentProblem): number {
  const groups = problem.groupRooms.length;
  const hotels = problem.hotelCapacity.length;
  const residual = Array.from(problem.hotelCapacity);
  let best = Infinity;
  const visit = (g: number, sofar: number): void => {
    if (g === groups) {
      best = Math.min(best, sofar);
      return;
    }
    visit(g + 1, sofar + problem.unassignedCost[g]!);
    for (let h = 0; h < hotels; h++) {
      const cost = pairCost(problem, g, h);
      const rooms = problem.groupRooms[g]!;
      if (cost === Infinity || residual[h]! < rooms) continue;
      residual[h]! -= rooms;
      visit(g + 1, sofar + cost);
      residual[h]! += rooms;
    }
  };
  visit(0, 0);
  return best;
}

/** Any small problem: arbitrary costs, some pairs ruled out, arbitrary left-out costs. */
const anyProblem = fc
  .record({ groups: fc.integer({ min: 1, max: 6 }), hotels: fc.integer({ min: 1, max: 4 }) })
  .chain(({ groups, hotels }) =>
    fc.record({
      groupRooms: fc.array(fc.integer({ min: 1, max: 5 }), { minLength: groups, maxLength: groups }),
      hotelCapacity: fc.array(fc.integer({ min: 0, max: 10 }), { minLength: hotels, maxLength: hotels }),
      cost: fc
        .array(
          fc.oneof(
            { weight: 5, arbitrary: fc.integer({ min: 0, max: 1000 }) },
            { weight: 1, arbitrary: fc.constant(Infinity) },
          ),
          {
            minLength: groups * hotels,
            maxLength: groups * hotels,
          },
        )
        .map((values) => Float64Array.from(values, (v) => v / 10)),
      unassignedCost: fc.array(
        fc.integer({ min: 1, max: 2000 }).map((v) => v / 10),
        { minLength: groups, maxLength: groups },
      ),
    }),
  );

/**
 * A problem shaped as planWave builds it: cost = rooms x nights x the hotel's score, a group
 * too big for a hotel ruled out there, and leaving a group out dearer than any placement; with
 * the factors planWave passes along.
 */
function waveShaped(maxGroups: number, maxHotels: number) {
  return fc
    .record({
      groups: fc.integer({ min: 1, max: maxGroups }),
      hotels: fc.integer({ min: 1, max: maxHotels }),
    })
    .chain(({ groups, hotels }) =>
      fc.record({
        rooms: fc.array(fc.integer({ min: 1, max: 5 }), { minLength: groups, maxLength: groups }),
        nights: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: groups, maxLength: groups }),
        capacity: fc.array(fc.integer({ min: 0, max: 12 }), { minLength: hotels, maxLength: hotels }),
        score: fc.array(
          fc.integer({ min: 0, max: 1000 }).map((permille) => permille / 1000),
          { minLength: hotels, maxLength: hotels },
        ),
      }),
    )
    .map(({ rooms, nights, capacity, score }): AssignmentProblem => {
      const roomNights = rooms.reduce((sum, r, g) => sum + r * nights[g]!, 0);
      return {
        groupRooms: rooms,
        hotelCapacity: capacity,
        cost: Float64Array.from(
          rooms.flatMap((r, g) => score.map((s, h) => (r <= capacity[h]! ? r * nights[g]! * s : Infinity))),
        ),
        unassignedCost: rooms.map((r) => r * (1 + roomNights)),
        factors: { groupWeight: rooms.map((r, g) => r * nights[g]!), hotelScore: score },
      };
    });
}

function withoutFactors({ factors: _, ...problem }: AssignmentProblem): AssignmentProblem {
  return problem;
}

/** The problem as planWave hands it over: the factors without the cost matrix. */
function withoutMatrix({ cost: _, ...problem }: AssignmentProblem): AssignmentProblem {
  return problem;
}

function relativeGap(objective: number, optimum: number): number {
  return (objective - optimum) / Math.max(Math.abs(optimum), 1e-9);
}

function expectFeasibleAndMoveOptimal(problem: AssignmentProblem, hotelOf: Int32Array): void {
  const hotels = problem.hotelCapacity.length;
  const residual = Array.from(problem.hotelCapacity);
  hotelOf.forEach((h, g) => {
    expect(h).toBeGreaterThanOrEqual(-1);
    expect(h).toBeLessThan(hotels);
    if (h >= 0) {
      expect(pairCost(problem, g, h)).toBeLessThan(Infinity);
      residual[h]! -= problem.groupRooms[g]!;
    }
  });
  for (const left of residual) expect(left).toBeGreaterThanOrEqual(0);
  hotelOf.forEach((h, g) => {
    if (h !== -1) return;
    for (let other = 0; other < hotels; other++) {
      const fits = residual[other]! >= problem.groupRooms[g]!;
      const worthIt = pairCost(problem, g, other) < problem.unassignedCost[g]!;
      expect(fits && worthIt, `group ${g} left out although hotel ${other} has room`).toBe(false);
    }
  });
}

describe("solveAssignment", () => {
  it("finds the optimum of small problems, as exhaustive enumeration does, and says it is proven", () => {
    fc.assert(
      fc.property(anyProblem, (problem) => {
        const solved = solveAssignment(problem);
        expect(solved.provenOptimal).toBe(true);
        expect(relativeGap(solved.objective, bruteForce(problem))).toBeLessThanOrEqual(1e-9);
      }),
      { numRuns: 300 },
    );
  });

  // The heuristic alone (no exact search) is NOT always within 0.5% on tiny waves: fast-check found
  // groupRooms [1,5,2,2,4], capacity [5,2,8] with zero-cost hotels 15% off. Small waves therefore
  // always get the exact search, which is what this checks on wave-shaped problems; the heuristic's
  // gap on large waves is measured against HiGHS in bench/allocation.ts.
  it("solves small wave-shaped problems exactly on the default path, as exhaustive enumeration does", () => {
    fc.assert(
      fc.property(waveShaped(6, 4), (problem) => {
        const solved = solveAssignment(problem);
        expect(solved.provenOptimal).toBe(true);
        expect(relativeGap(solved.objective, bruteForce(problem))).toBeLessThanOrEqual(1e-9);
      }),
      { numRuns: 300 },
    );
  });

  it("never exceeds a hotel's rooms, places a group in one allowed hotel at most, and leaves a group out only when nothing has room", () => {
    fc.assert(
      fc.property(fc.oneof(anyProblem, waveShaped(40, 8)), (problem) => {
        const solved = solveAssignment(problem, { exactSearchNodeBudget: 0 });
        expect(solved.objective).toBe(objectiveOf(problem, solved.hotelOf));
        expectFeasibleAndMoveOptimal(problem, solved.hotelOf);
      }),
      { numRuns: 200 },
    );
  });

  it("answers the same way every time for the same wave", () => {
    fc.assert(
      fc.property(waveShaped(30, 6), (problem) => {
        expect(solveAssignment(problem).hotelOf).toEqual(solveAssignment(problem).hotelOf);
      }),
      { numRuns: 30 },
    );
  });

  it("reaches the same assignment with the factors (with or without the matrix) as from the cost matrix alone", () => {
    fc.assert(
      fc.property(waveShaped(60, 12), fc.boolean(), (problem, exact) => {
        const options = { exactSearchNodeBudget: exact ? 200_000 : 0 };
        const fromCosts = solveAssignment(withoutFactors(problem), options);
        for (const withFactors of [
          solveAssignment(problem, options),
          solveAssignment(withoutMatrix(problem), options),
        ]) {
          expect(Array.from(withFactors.hotelOf)).toEqual(Array.from(fromCosts.hotelOf));
          expect(withFactors.objective).toBe(fromCosts.objective);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("solves the whole wave rather than group by group: the long stay gets the cheap hotel", () => {
    // Hotel 0 scores 0.2 per room-night and has 2 rooms; hotel 1 scores 0.5 and has 5.
    // Placing group 0 (1 room, 1 night) first in its best hotel would push group 1
    // (2 rooms, 3 nights) out of hotel 0: 1 x 0.2 + 6 x 0.5 = 3.2 instead of 6 x 0.2 + 1 x 0.5 = 1.7.
    const problem: AssignmentProblem = {
      groupRooms: [1, 2],
      hotelCapacity: [2, 5],
      cost: Float64Array.from([0.2, 0.5, 1.2, 3.0]),
      unassignedCost: [8, 16],
    };
    const solved = solveAssignment(problem, { exactSearchNodeBudget: 0 });
    expect(Array.from(solved.hotelOf)).toEqual([1, 0]);
    expect(solved.objective).toBeCloseTo(1.7, 12);
  });

  it("leaves a group out when no hotel is large enough, since a group is never split", () => {
    const problem: AssignmentProblem = {
      groupRooms: [3],
      hotelCapacity: [2, 2],
      cost: Float64Array.from([1, 1]),
      unassignedCost: [10],
    };
    expect(Array.from(solveAssignment(problem).hotelOf)).toEqual([-1]);
  });

  it(`searches exactly only up to ${EXACT_SEARCH_MAX_GROUPS} groups`, () => {
    const groups = EXACT_SEARCH_MAX_GROUPS + 1;
    const problem: AssignmentProblem = {
      groupRooms: new Array(groups).fill(1),
      hotelCapacity: [groups],
      cost: new Float64Array(groups).fill(1),
      unassignedCost: new Array(groups).fill(10),
    };
    expect(solveAssignment(problem).provenOptimal).toBe(false);
  });

  it.each([
    { name: "a cost matrix of the wrong size", change: { cost: new Float64Array(3) } },
    { name: "neither a cost matrix nor factors", change: { cost: undefined } },
    { name: "a NaN cost", change: { cost: Float64Array.from([Number.NaN, 1]) } },
    { name: "a group of zero rooms", change: { groupRooms: [0] } },
    { name: "a fractional capacity", change: { hotelCapacity: [1.5, 2] } },
    { name: "an infinite left-out cost", change: { unassignedCost: [Infinity] } },
    {
      name: "factors that do not give the costs",
      change: { factors: { groupWeight: [1], hotelScore: [1, 3] } },
    },
    {
      name: "factors where the group does not fit",
      change: { hotelCapacity: [0, 2], factors: { groupWeight: [1], hotelScore: [1, 2] } },
    },
  ])("refuses $name", ({ change }) => {
    const problem: AssignmentProblem = {
      groupRooms: [1],
      hotelCapacity: [1, 2],
      cost: Float64Array.from([1, 2]),
      unassignedCost: [5],
    };
    expect(() => solveAssignment({ ...problem, ...change })).toThrow(DomainError);
  });
});
