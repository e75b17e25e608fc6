import { type Coordinates, greatCircleKm } from "./geo.js";
import type { OperatorRole } from "./roles.js";

/**
 * Operator second factors (spec 5.1): which factors a sign-in needs, decided from the role, the
 * airline's setting, what the user has enrolled and the risk signals of this sign-in. Pure: the
 * identity provider gathers the inputs and enforces the answer.
 */
export const SECOND_FACTORS = ["webauthn", "totp", "sms"] as const;
export type SecondFactor = (typeof SECOND_FACTORS)[number];

/** Phishing-resistant or app-based factors; SMS is weaker and never enough where these are possible. */
const STRONG_FACTORS: readonly SecondFactor[] = ["webauthn", "totp"];

/** RFC 8176 authentication method of each second factor, as a token's `amr` carries it. */
export const AMR_OF_FACTOR: Record<SecondFactor, string> = { webauthn: "hwk", totp: "otp", sms: "sms" };

/**
 * Whether a token's `amr` shows a second factor acceptable for `role`: what the API checks on
 * every request of the roles whose MFA is mandatory (SMS never counts for ADMIN).
 */
export function amrShowsSecondFactor(role: string, amr: readonly string[]): boolean {
  const accepted = role === "ADMIN" ? STRONG_FACTORS : SECOND_FACTORS;
  return accepted.some((factor) => amr.includes(AMR_OF_FACTOR[factor]));
}

/**
 * An airline's (organization's) MFA setting for AIRPORT_OPERATOR (spec 5.1: configurable per
 * organization): `always` asks every sign-in for a second factor; `on-risk` only when a risk
 * signal steps the sign-in up.
 */
export type AirportOperatorMfa = "always" | "on-risk";
export const DEFAULT_AIRPORT_OPERATOR_MFA: AirportOperatorMfa = "on-risk";

/** What looks unusual about this sign-in (spec 5.1: new device, impossible travel, high-risk IP). */
export interface RiskSignals {
  /** The browser's device cookie was never seen for this user (who has signed in before). */
  newDevice: boolean;
  /** The address is on the configured high-risk list. */
  highRiskAddress: boolean;
  /** Getting here from the previous sign-in's place would have needed an impossible speed. */
  impossibleTravel: boolean;
}

export const NO_RISK: RiskSignals = { newDevice: false, highRiskAddress: false, impossibleTravel: false };

export interface FactorQuestion {
  role: OperatorRole;
  /** The user's airline's setting; only AIRPORT_OPERATOR reads it. */
  airportOperatorMfa: AirportOperatorMfa;
  enrolled: ReadonlySet<SecondFactor>;
  risk: RiskSignals;
}

export type FactorDecision =
  /** The password is enough. */
  | { kind: "password-only" }
  /** One of `factors` (all enrolled, best first) must be presented; `why` says what asked for it. */
  | { kind: "one-of"; factors: SecondFactor[]; why: string }
  /** No sign-in is possible until the user enrols an acceptable factor. */
  | { kind: "refused"; reason: string };

export function requiredSecondFactors({
  role,
  airportOperatorMfa,
  enrolled,
  risk,
}: FactorQuestion): FactorDecision {
  const strong = STRONG_FACTORS.filter((f) => enrolled.has(f));
  switch (role) {
    case "ADMIN":
      if (strong.length > 0)
        return { kind: "one-of", factors: strong, why: "role ADMIN requires a second factor" };
      return {
        kind: "refused",
        reason:
          "role ADMIN requires a passkey (WebAuthn) or an authenticator app (TOTP), and SMS is not allowed for ADMIN: enrol one of those first",
      };
    case "OPS_SUPERVISOR":
    case "FINANCE_AUDIT": {
      const why = `role ${role} requires a second factor`;
      if (strong.length > 0) return { kind: "one-of", factors: strong, why };
      // Last resort only (spec 5.1): SMS counts when neither strong factor is enrolled.
      if (enrolled.has("sms"))
        return { kind: "one-of", factors: ["sms"], why: `${why} (SMS as the last resort)` };
      return {
        kind: "refused",
        reason: `role ${role} requires a passkey (WebAuthn) or an authenticator app (TOTP): enrol one of those first`,
      };
    }
    case "AIRPORT_OPERATOR": {
      const reasons = riskReasons(risk);
      if (airportOperatorMfa === "always") reasons.unshift("the airline requires a second factor");
      if (reasons.length === 0) return { kind: "password-only" };
      const why = reasons.join("; ");
      const factors = [...strong, ...(enrolled.has("sms") ? (["sms"] as const) : [])];
      if (factors.length > 0) return { kind: "one-of", factors, why };
      return {
        kind: "refused",
        reason: `a second factor is required (${why}) and none is enrolled: ask an ADMIN of the airline to help enrol one`,
      };
    }
  }
}

function riskReasons(risk: RiskSignals): string[] {
  return [
    ...(risk.newDevice ? ["sign-in from a new device"] : []),
    ...(risk.highRiskAddress ? ["sign-in from a high-risk address"] : []),
    ...(risk.impossibleTravel ? ["impossible travel since the previous sign-in"] : []),
  ];
}

/** Where and when a sign-in happened, as far as the address-to-location table knows. */
export interface SignInPlace {
  at: number;
  where: Coordinates;
}

/**
 * Impossible travel: the great-circle distance between two sign-ins divided by the time between
 * them exceeds `maxKmPerHour` (an airliner flies about 900 km/h). Sign-ins less than a minute
 * apart count as a minute, so two places at once is impossible however close in time.
 */
export function isImpossibleTravel(
  previous: SignInPlace,
  current: SignInPlace,
  maxKmPerHour: number,
): boolean {
  const km = greatCircleKm(previous.where, current.where);
  const hours = Math.max(Math.abs(current.at - previous.at), 60_000) / 3_600_000;
  return km / hours > maxKmPerHour;
}
