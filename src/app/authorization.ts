import { DomainError } from "../domain/domain-error.js";
import { roleSatisfies, type ServiceRole } from "../domain/roles.js";
import type { OperatorPrincipal, Principal } from "./principals.js";

/**
 * Who may act (spec part 4, 5.4): every refusal is a DomainError of kind `forbidden`, which each
 * surface answers with 403 and the code as the problem type.
 */

/** The caller's role, or one it inherits, must be among `allowed`. */
export function assertRole(principal: OperatorPrincipal, allowed: readonly ServiceRole[]): void {
  if (!roleSatisfies(principal.role, allowed)) {
    throw new DomainError(
      "forbidden",
      "role-not-allowed",
      `Role ${principal.role} may not perform this operation`,
      { requiredRoles: [...allowed] },
    );
  }
}

/** Spec 4.2: an operator restricted to one airport cannot act on another airport's resources. */
export function assertAirport(principal: OperatorPrincipal, airportOfResource: string): void {
  if (principal.airport !== undefined && principal.airport !== airportOfResource) {
    throw new DomainError(
      "forbidden",
      "airport-mismatch",
      `This operator may act on airport ${principal.airport} only`,
    );
  }
}

/** Spec 5.4: a resource of another tenant is refused with 403 on every surface. */
export function assertTenant(principal: Principal, tenantOfResource: string): void {
  if (principal.tenant !== tenantOfResource) {
    throw new DomainError("forbidden", "tenant-mismatch", "The resource belongs to another tenant");
  }
}

/** An airport-scoped operator sees its own airport only; asking for another is refused. */
export function scopedAirport(caller: Principal, requested: string | undefined): string | undefined {
  if (caller.surface !== "operator" || caller.airport === undefined) return requested;
  if (requested !== undefined) assertAirport(caller, requested);
  return caller.airport;
}
