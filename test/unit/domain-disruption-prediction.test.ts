import { describe, expect, it } from "vitest";
import { createDemand } from "../../src/domain/demand.js";
import {
  DEFAULT_PREDICTION_THRESHOLD,
  flagsDisruption,
  predictDisruption,
  predictionRules,
} from "../../src/domain/disruption-prediction.js";
import type { FlightState } from "../../src/domain/flight-state.js";

function state(
  changes: Partial<FlightState> & { status?: FlightState["flight"]["status"] } = {},
): FlightState {
  const { status = "SCHEDULED", ...rest } = changes;
  return {
    messageId: "m-1",
    airline: "urn:airline:ZX",
    observedAt: "2026-11-21T18:00:00Z",
    flight: {
      number: "ZX100",
      origin: "JFK",
      destination: "LHR",
      scheduledDeparture: "2026-11-21T22:00:00Z",
      status,
    },
    delayMinutes: 0,
    weatherCodes: [],
    atcCodes: [],
    ...rest,
  };
}

describe("the flight predictor", () => {
  it("gives a quiet flight a low probability and no reasons", () => {
    expect(predictDisruption(state())).toEqual({ probability: 0.047, reasons: [] });
  });

  it("is certain of a cancellation and rules out a departed flight", () => {
    expect(predictDisruption(state({ status: "CANCELLED" }))).toMatchObject({
      probability: 1,
      reasons: [{ cause: "CANCELLED" }],
    });
    expect(predictDisruption(state({ status: "DEPARTED", delayMinutes: 300 })).probability).toBe(0);
  });

  it("adds log-odds per input and lists the reasons strongest first", () => {
    const storm = predictDisruption(
      state({
        status: "DELAYED",
        delayMinutes: 180,
        weatherCodes: ["TSRA", "-SN", "BR"],
        atcCodes: ["GROUND_STOP"],
        history: { flights: 10, disrupted: 3 },
      }),
    );
    // -3 + (3 h x 0.8 + 0.5) + 1.5 (TS) + 0.3 (light snow) + 2.5 + 2 x 0.3 = 4.8
    expect(storm.probability).toBe(0.992);
    expect(storm.reasons).toEqual([
      { cause: "DELAY", detail: "180 min", weight: 2.9 },
      { cause: "ATC", detail: "GROUND_STOP", weight: 2.5 },
      { cause: "WEATHER", detail: "TSRA", weight: 1.5 },
      { cause: "HISTORY", detail: "3/10", weight: 0.6 },
      { cause: "WEATHER", detail: "-SN", weight: 0.3 },
    ]);
  });

  it("counts delays up to six hours, two weather groups, and history only over five flights", () => {
    const six = predictDisruption(state({ delayMinutes: 360 })).probability;
    expect(predictDisruption(state({ delayMinutes: 900 })).probability).toBe(six);
    const twoGroups = predictDisruption(state({ weatherCodes: ["TS", "FZRA"] })).probability;
    expect(predictDisruption(state({ weatherCodes: ["TS", "FZRA", "+SN"] })).probability).toBe(twoGroups);
    expect(predictDisruption(state({ history: { flights: 4, disrupted: 4 } })).reasons).toEqual([]);
  });

  it("is deterministic", () => {
    const input = state({ delayMinutes: 95, weatherCodes: ["FG"], atcCodes: ["FLOW_RESTRICTION"] });
    expect(predictDisruption(input)).toEqual(predictDisruption(structuredClone(input)));
  });
});

describe("the policy's prediction rules (spec 6.1)", () => {
  it("flags a flight above the policy threshold, the default one without", () => {
    expect(predictionRules(undefined)).toEqual({ threshold: DEFAULT_PREDICTION_THRESHOLD, draftCase: false });
    expect(predictionRules({ prediction: { threshold: 0.5, draftCase: true } })).toEqual({
      threshold: 0.5,
      draftCase: true,
    });
    const prediction = { probability: 0.5, reasons: [] };
    expect(flagsDisruption(prediction, 0.5)).toBe(false);
    expect(flagsDisruption(prediction, 0.49)).toBe(true);
  });
});

describe("an airport freeze on new demand (spec 3.1)", () => {
  const request = {
    urn: "urn:demand:c1.1",
    caseUrn: "urn:case:c1",
    type: "INITIAL" as const,
    roomsRequested: 4,
    requestedBy: "urn:user:op",
  };
  const autoApproving = {
    urn: "urn:policy:p.1",
    version: 2,
    autoApproveDemand: true,
    maxAutomaticRoomsPerWave: 10,
    incrementalRequiresApproval: false,
  };
  const now = new Date("2026-11-21T20:00:00Z");

  it("rejects the demand in the system's name, whatever the policy would approve", () => {
    expect(createDemand(request, autoApproving, now).state).toBe("APPROVED");
    const frozen = createDemand(request, autoApproving, now, { airport: "JFK", reason: "strike" });
    expect(frozen).toMatchObject({
      state: "REJECTED",
      decisions: [
        {
          action: "reject",
          by: "urn:system:airport-freeze",
          reason: "Airport JFK is frozen: strike",
          policyVersion: 2,
        },
      ],
    });
  });
});
