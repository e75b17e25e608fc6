import { roleSatisfies, type ServiceRole } from "../../domain/roles.js";
import type { OperatorPrincipal, PartnerPrincipal, Principal } from "../access.js";
import { ForbiddenError, ProblemError } from "../errors.js";

/**
 * 403 for a partner whose token lacks the route's scope; RFC 6750 names the reason in
 * `WWW-Authenticate` so the client knows to ask for another registration scope, not a new token.
 */
export class InsufficientScopeError extends ProblemError {
  constructor(readonly scope: string) {
    super({
      status: 403,
      category: "forbidden",
      code: "insufficient-scope",
      detail: `This operation requires the scope ${scope}`,
      headers: { "WWW-Authenticate": `Bearer error="insufficient_scope", scope="${scope}"` },
    });
    this.name = "InsufficientScopeError";
  }
}

/** The caller's role, or one it inherits, must be among `allowed`. */
export function assertRole(principal: OperatorPrincipal, allowed: readonly ServiceRole[]): void {
  if (!roleSatisfies(principal.role, allowed)) {
    throw new ForbiddenError("role-not-allowed", `Role ${principal.role} may not perform this operation`, {
      requiredRoles: [...allowed],
    });
  }
}

export function assertScope(principal: PartnerPrincipal, scope: string): void {
  if (!principal.scopes.has(scope)) throw new InsufficientScopeError(scope);
}

/** Spec 4.2: an operator restricted to one airport cannot act on another airport's resources. */
export function assertAirport(principal: OperatorPrincipal, airportOfResource: string): void {
  if (principal.airport !== undefined && principal.airport !== airportOfResource) {
    throw new ForbiddenError(
      "airport-mismatch",
      `This operator may act on airport ${principal.airport} only`,
    );
  }
}

/** Spec 5.4: a resource of another tenant is refused with 403 on every surface. */
export function assertTenant(principal: Principal, tenantOfResource: string): void {
  if (principal.tenant !== tenantOfResource) {
    throw new ForbiddenError("tenant-mismatch", "The resource belongs to another tenant");
  }
}
