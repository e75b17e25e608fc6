import { describe, expect, it } from "vitest";
import { effectiveRoles as serviceRoles, OPERATOR_ROLES } from "../../src/domain/roles.js";
import { CLAIM } from "../../src/http/auth/claims.js";
import { jwtPayload, operatorOf } from "../../services/operator-console/src/claims.js";
import { effectiveRoles, ROLES, roleSatisfies } from "../../services/operator-console/src/roles.js";

/** A JWT-shaped string (unsigned: the console reads claims, the API verifies them). */
function token(payload: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${part({ alg: "RS256" })}.${part(payload)}.sig`;
}

describe("console roles", () => {
  it("computes inheritance exactly as the service does (spec part 4)", () => {
    expect([...ROLES].sort()).toEqual([...OPERATOR_ROLES].sort());
    for (const role of ROLES)
      expect([...effectiveRoles(role)].sort()).toEqual([...serviceRoles(role)].sort());
  });

  it("answers 'X+' and lists of roles, and nothing for nobody", () => {
    expect(roleSatisfies("ADMIN", "OPS_SUPERVISOR")).toBe(true);
    expect(roleSatisfies("OPS_SUPERVISOR", "AIRPORT_OPERATOR")).toBe(true);
    expect(roleSatisfies("AIRPORT_OPERATOR", "OPS_SUPERVISOR")).toBe(false);
    expect(roleSatisfies("FINANCE_AUDIT", "AIRPORT_OPERATOR")).toBe(false);
    expect(roleSatisfies("FINANCE_AUDIT", ["FINANCE_AUDIT", "OPS_SUPERVISOR"])).toBe(true);
    expect(roleSatisfies("AIRPORT_OPERATOR", ["FINANCE_AUDIT", "OPS_SUPERVISOR"])).toBe(false);
    expect(roleSatisfies(undefined, "AIRPORT_OPERATOR")).toBe(false);
  });
});

describe("console claims", () => {
  it("reads the operator of an access token and the e-mail of its ID token", () => {
    const access = token({
      sub: "zx-ops",
      exp: 1_900_000_000,
      [CLAIM.role]: "AIRPORT_OPERATOR",
      [CLAIM.airline]: "urn:airline:ZX",
      [CLAIM.operatorUrn]: "urn:user:zx-ops",
      [CLAIM.airport]: "JFK",
      name: "Zoë ñ",
    });
    expect(operatorOf(access, token({ email: "ops@zx.demo" }))).toEqual({
      role: "AIRPORT_OPERATOR",
      airline: "urn:airline:ZX",
      operatorUrn: "urn:user:zx-ops",
      email: "ops@zx.demo",
      airport: "JFK",
      expiresAt: 1_900_000_000_000,
    });
    expect(jwtPayload(access)?.name).toBe("Zoë ñ");
  });

  it("refuses what is not an operator's token", () => {
    expect(operatorOf("not-a-token")).toBeUndefined();
    expect(
      operatorOf(token({ [CLAIM.role]: "INTEGRATION", [CLAIM.airline]: "a", [CLAIM.operatorUrn]: "b" })),
    ).toBeUndefined();
    expect(operatorOf(token({ [CLAIM.partnerUrn]: "urn:partner:x" }))).toBeUndefined();
  });
});
