import type { Role } from "../roles.js";
import { can, type Operator } from "../session.js";

/**
 * The least role each console action needs (spec 4.1, 4.2; the field manual's roles where it gives
 * them, the operator OpenAPI document's access otherwise). The console hides or disables what the
 * signed-in role cannot do; the API still decides and its 403 is shown.
 */
export const ACTION_ROLES = {
  "policy.create": "OPS_SUPERVISOR",
  "policy.patch": "OPS_SUPERVISOR",
  "policy.activate": "ADMIN",
  "policy.history": "OPS_SUPERVISOR",
  "review.list": "OPS_SUPERVISOR",
  "review.escalate": "OPS_SUPERVISOR",
  "review.relax": "OPS_SUPERVISOR",
  "review.override": "OPS_SUPERVISOR",
  "review.claim": "AIRPORT_OPERATOR",
  "review.rebook": "AIRPORT_OPERATOR",
  "review.split": "AIRPORT_OPERATOR",
  "review.resolve": "AIRPORT_OPERATOR",
  "agent.decide": "OPS_SUPERVISOR",
  "subcase.compensate": "AIRPORT_OPERATOR",
  "demand.request": "AIRPORT_OPERATOR",
  "demand.decide": "OPS_SUPERVISOR",
  /** Allocate, book rooms, rerun the wave and override an allocation. */
  "case.allocate": "OPS_SUPERVISOR",
  "case.close": "AIRPORT_OPERATOR",
  "case.reopen": "ADMIN",
  "transport.change": "AIRPORT_OPERATOR",
  "wallet.cancel": "AIRPORT_OPERATOR",
  "wallet.resume": "ADMIN",
} as const satisfies Record<string, Role>;

export type ConsoleAction = keyof typeof ACTION_ROLES;

/** Whether the signed-in operator's role may take `action` (roles inherit, spec part 4). */
export function may(operator: Operator | null, action: ConsoleAction): boolean {
  return can(operator, ACTION_ROLES[action]);
}
