import { describe, expect, it } from "vitest";
import { OPERATOR_ROLES, type OperatorRole } from "../../src/domain/roles.js";
import {
  amrShowsSecondFactor,
  type AirportOperatorMfa,
  type FactorDecision,
  isImpossibleTravel,
  NO_RISK,
  type RiskSignals,
  requiredSecondFactors,
  SECOND_FACTORS,
  type SecondFactor,
} from "../../src/domain/second-factors.js";

function decide(
  role: OperatorRole,
  enrolled: SecondFactor[],
  { risk = NO_RISK, setting = "on-risk" }: { risk?: Partial<RiskSignals>; setting?: AirportOperatorMfa } = {},
): FactorDecision {
  return requiredSecondFactors({
    role,
    airportOperatorMfa: setting,
    enrolled: new Set(enrolled),
    risk: { ...NO_RISK, ...risk },
  });
}

/** Every subset of the factors, so each rule is checked against every enrolment. */
const ENROLMENTS: SecondFactor[][] = [0, 1, 2, 3, 4, 5, 6, 7].map((bits) =>
  SECOND_FACTORS.filter((_, i) => bits & (1 << i)),
);

describe("second factors an operator sign-in needs (spec 5.1)", () => {
  describe("ADMIN", () => {
    it("needs WebAuthn or TOTP whatever the risk, offering only the enrolled ones, best first", () => {
      expect(decide("ADMIN", ["totp", "webauthn"])).toEqual({
        kind: "one-of",
        factors: ["webauthn", "totp"],
        why: "role ADMIN requires a second factor",
      });
      expect(decide("ADMIN", ["totp"])).toMatchObject({ kind: "one-of", factors: ["totp"] });
      expect(decide("ADMIN", ["webauthn", "sms"])).toMatchObject({ kind: "one-of", factors: ["webauthn"] });
    });

    it("never accepts SMS, not even as the only factor enrolled", () => {
      for (const enrolled of ENROLMENTS) {
        const decision = decide("ADMIN", enrolled, { risk: { newDevice: true } });
        expect(decision.kind).not.toBe("password-only");
        if (decision.kind === "one-of") expect(decision.factors).not.toContain("sms");
      }
      const onlySms = decide("ADMIN", ["sms"]);
      expect(onlySms.kind).toBe("refused");
      expect(onlySms.kind === "refused" && onlySms.reason).toContain("SMS is not allowed for ADMIN");
    });

    it("is refused with nothing enrolled", () => {
      expect(decide("ADMIN", []).kind).toBe("refused");
    });
  });

  describe.each(["OPS_SUPERVISOR", "FINANCE_AUDIT"] as const)("%s", (role) => {
    it("needs WebAuthn or TOTP and offers no SMS while one of them is enrolled", () => {
      expect(decide(role, ["webauthn", "totp", "sms"])).toMatchObject({
        kind: "one-of",
        factors: ["webauthn", "totp"],
      });
      expect(decide(role, ["totp", "sms"])).toMatchObject({ kind: "one-of", factors: ["totp"] });
      expect(decide(role, ["webauthn", "sms"])).toMatchObject({ kind: "one-of", factors: ["webauthn"] });
    });

    it("takes SMS only as the last resort, when neither other factor is enrolled", () => {
      const decision = decide(role, ["sms"]);
      expect(decision).toMatchObject({ kind: "one-of", factors: ["sms"] });
      expect(decision.kind === "one-of" && decision.why).toContain("last resort");
    });

    it("is refused with nothing enrolled, and never lets the password alone through", () => {
      expect(decide(role, []).kind).toBe("refused");
      for (const enrolled of ENROLMENTS) expect(decide(role, enrolled).kind).not.toBe("password-only");
    });
  });

  describe("AIRPORT_OPERATOR", () => {
    it("signs in with the password alone when the airline asks only on risk and nothing is risky", () => {
      for (const enrolled of ENROLMENTS)
        expect(decide("AIRPORT_OPERATOR", enrolled)).toEqual({ kind: "password-only" });
    });

    it("needs a second factor on every sign-in when the airline says always", () => {
      expect(decide("AIRPORT_OPERATOR", ["totp"], { setting: "always" })).toEqual({
        kind: "one-of",
        factors: ["totp"],
        why: "the airline requires a second factor",
      });
      expect(decide("AIRPORT_OPERATOR", [], { setting: "always" }).kind).toBe("refused");
    });

    it.each([
      ["newDevice", "sign-in from a new device"],
      ["highRiskAddress", "sign-in from a high-risk address"],
      ["impossibleTravel", "impossible travel since the previous sign-in"],
    ] as const)("steps up on %s", (signal, why) => {
      expect(decide("AIRPORT_OPERATOR", ["webauthn"], { risk: { [signal]: true } })).toEqual({
        kind: "one-of",
        factors: ["webauthn"],
        why,
      });
    });

    it("names every reason that asked, and offers SMS after the stronger factors", () => {
      expect(
        decide("AIRPORT_OPERATOR", ["sms", "totp", "webauthn"], {
          setting: "always",
          risk: { newDevice: true, impossibleTravel: true },
        }),
      ).toEqual({
        kind: "one-of",
        factors: ["webauthn", "totp", "sms"],
        why: "the airline requires a second factor; sign-in from a new device; impossible travel since the previous sign-in",
      });
      expect(decide("AIRPORT_OPERATOR", ["sms"], { risk: { highRiskAddress: true } })).toMatchObject({
        kind: "one-of",
        factors: ["sms"],
      });
    });

    it("is refused, saying why, when a step-up is needed and nothing is enrolled", () => {
      const decision = decide("AIRPORT_OPERATOR", [], { risk: { highRiskAddress: true } });
      expect(decision.kind).toBe("refused");
      expect(decision.kind === "refused" && decision.reason).toContain("high-risk address");
    });
  });

  it("answers for every role, enrolment and risk without throwing, and never offers a factor not enrolled", () => {
    const risks: RiskSignals[] = [
      NO_RISK,
      { newDevice: true, highRiskAddress: true, impossibleTravel: true },
    ];
    for (const role of OPERATOR_ROLES)
      for (const enrolled of ENROLMENTS)
        for (const risk of risks)
          for (const setting of ["always", "on-risk"] as const) {
            const decision = requiredSecondFactors({
              role,
              airportOperatorMfa: setting,
              enrolled: new Set(enrolled),
              risk,
            });
            if (decision.kind === "one-of") {
              expect(decision.factors.length).toBeGreaterThan(0);
              for (const f of decision.factors) expect(enrolled).toContain(f);
            }
          }
  });
});

describe("impossible travel", () => {
  const jfk = { lat: 40.64, lon: -73.78 };
  const lhr = { lat: 51.47, lon: -0.45 };
  const HOUR = 3_600_000;

  it("flags New York then London an hour apart, not eight hours apart (at 1000 km/h)", () => {
    expect(isImpossibleTravel({ at: 0, where: jfk }, { at: HOUR, where: lhr }, 1000)).toBe(true);
    expect(isImpossibleTravel({ at: 0, where: jfk }, { at: 8 * HOUR, where: lhr }, 1000)).toBe(false);
  });

  it("does not flag the same place, and treats sign-ins seconds apart as a minute apart", () => {
    expect(isImpossibleTravel({ at: 0, where: jfk }, { at: 0, where: jfk }, 1000)).toBe(false);
    const boston = { lat: 42.36, lon: -71.01 };
    // About 300 km: impossible in one minute, fine in an hour.
    expect(isImpossibleTravel({ at: 0, where: jfk }, { at: 1000, where: boston }, 1000)).toBe(true);
    expect(isImpossibleTravel({ at: 0, where: jfk }, { at: HOUR, where: boston }, 1000)).toBe(false);
  });
});

describe("what a token's amr must show (checked by the API on every request)", () => {
  it("accepts a passkey (hwk) or TOTP (otp) for ADMIN, never SMS or the password alone", () => {
    expect(amrShowsSecondFactor("ADMIN", ["pwd", "hwk"])).toBe(true);
    expect(amrShowsSecondFactor("ADMIN", ["pwd", "otp"])).toBe(true);
    expect(amrShowsSecondFactor("ADMIN", ["pwd", "sms"])).toBe(false);
    expect(amrShowsSecondFactor("ADMIN", ["pwd"])).toBe(false);
  });

  it("accepts SMS for the roles where it is the last resort", () => {
    expect(amrShowsSecondFactor("OPS_SUPERVISOR", ["pwd", "sms"])).toBe(true);
    expect(amrShowsSecondFactor("FINANCE_AUDIT", ["pwd", "sms"])).toBe(true);
    expect(amrShowsSecondFactor("FINANCE_AUDIT", ["pwd"])).toBe(false);
  });
});
