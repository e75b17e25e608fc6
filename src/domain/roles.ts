/**
 * Operator roles (spec part 4): ADMIN inherits OPS_SUPERVISOR, AIRPORT_OPERATOR and FINANCE_AUDIT;
 * OPS_SUPERVISOR inherits AIRPORT_OPERATOR; FINANCE_AUDIT is parallel and read-only. Tokens carry
 * only the assigned role; inheritance is computed here.
 */
export const OPERATOR_ROLES = ["ADMIN", "OPS_SUPERVISOR", "AIRPORT_OPERATOR", "FINANCE_AUDIT"] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/** Service tokens may also carry INTEGRATION (server-to-server disruption posting). */
export type ServiceRole = OperatorRole | "INTEGRATION";

const INHERITS: Record<ServiceRole, readonly ServiceRole[]> = {
  ADMIN: ["OPS_SUPERVISOR", "AIRPORT_OPERATOR", "FINANCE_AUDIT"],
  OPS_SUPERVISOR: ["AIRPORT_OPERATOR"],
  AIRPORT_OPERATOR: [],
  FINANCE_AUDIT: [],
  INTEGRATION: [],
};

/** Every role the holder of `role` effectively has, itself included. */
export function effectiveRoles(role: ServiceRole): ReadonlySet<ServiceRole> {
  return EFFECTIVE_ROLES[role];
}

function inheritedClosure(role: ServiceRole): ReadonlySet<ServiceRole> {
  const seen = new Set<ServiceRole>();
  const visit = (r: ServiceRole) => {
    if (seen.has(r)) return;
    seen.add(r);
    for (const inherited of INHERITS[r]) visit(inherited);
  };
  visit(role);
  return seen;
}

/** Worked out once: every authorised request asks, and the answer depends on the role alone. */
const EFFECTIVE_ROLES = Object.fromEntries(
  (Object.keys(INHERITS) as ServiceRole[]).map((role) => [role, inheritedClosure(role)]),
) as Record<ServiceRole, ReadonlySet<ServiceRole>>;

/** True when `role` is any of `allowed` or inherits one of them. */
export function roleSatisfies(role: ServiceRole, allowed: readonly ServiceRole[]): boolean {
  const roles = effectiveRoles(role);
  return allowed.some((a) => roles.has(a));
}
