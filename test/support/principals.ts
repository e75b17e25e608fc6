import type { OperatorPrincipal } from "../../src/app/principals.js";
import type { ServiceRole } from "../../src/domain/roles.js";

/**
 * An operator of airline ZX acting as `role` (user `urn:user:<role in lower case>`), signed in with a
 * password, whose token outlives the test; `overrides` set what a test is about.
 */
export function operatorPrincipal(
  role: ServiceRole,
  overrides: Partial<OperatorPrincipal> = {},
): OperatorPrincipal {
  return {
    surface: "operator",
    actorUrn: `urn:user:${role.toLowerCase()}`,
    tenant: "urn:airline:ZX",
    role,
    amr: ["pwd"],
    expiresAt: Number.MAX_SAFE_INTEGER,
    ...overrides,
  };
}
