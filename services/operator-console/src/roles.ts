/**
 * Operator roles and their inheritance (spec part 4), as the service computes them in
 * src/domain/roles.ts: ADMIN inherits OPS_SUPERVISOR, AIRPORT_OPERATOR and FINANCE_AUDIT;
 * OPS_SUPERVISOR inherits AIRPORT_OPERATOR; FINANCE_AUDIT is parallel and read-only. The console
 * only hides or disables what a role cannot do; the API still decides.
 */
export const ROLES = ["ADMIN", "OPS_SUPERVISOR", "AIRPORT_OPERATOR", "FINANCE_AUDIT"] as const;
export type Role = (typeof ROLES)[number];

const INHERITS: Record<Role, readonly Role[]> = {
  ADMIN: ["OPS_SUPERVISOR", "AIRPORT_OPERATOR", "FINANCE_AUDIT"],
  OPS_SUPERVISOR: ["AIRPORT_OPERATOR"],
  AIRPORT_OPERATOR: [],
  FINANCE_AUDIT: [],
};

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

/** Every role the holder of `role` effectively has, itself included. */
export function effectiveRoles(role: Role): ReadonlySet<Role> {
  const seen = new Set<Role>();
  const visit = (r: Role) => {
    if (seen.has(r)) return;
    seen.add(r);
    for (const inherited of INHERITS[r]) visit(inherited);
  };
  visit(role);
  return seen;
}

/**
 * True when `role` is one of `allowed` or inherits one: the spec's "X+" is `[X]`, and a route open to
 * "FINANCE_AUDIT, OPS_SUPERVISOR+" is `["FINANCE_AUDIT", "OPS_SUPERVISOR"]`.
 */
export function roleSatisfies(role: Role | undefined, allowed: Role | readonly Role[]): boolean {
  if (!role) return false;
  const roles = effectiveRoles(role);
  return (typeof allowed === "string" ? [allowed] : allowed).some((a) => roles.has(a));
}
