import type { ServiceRole } from "../domain/roles.js";

/** What a route declares about who may call it; the auth middleware enforces it. */
export type Access =
  | { kind: "public" }
  /** Any valid token of any surface (e.g. GET /version). */
  | { kind: "any-token" }
  /** `anyOf`: the caller's role must be one of these or inherit one. */
  | { kind: "operator"; anyOf: readonly ServiceRole[]; airportScoped?: boolean }
  | { kind: "partner"; scope: string }
  | { kind: "passenger" };

/**
 * The operator accesses most routes declare, by the least role that may call (roles inherit:
 * ADMIN above OPS_SUPERVISOR above AIRPORT_OPERATOR, spec part 4).
 */
export const operators = { kind: "operator", anyOf: ["AIRPORT_OPERATOR"] } as const;
export const supervisors = { kind: "operator", anyOf: ["OPS_SUPERVISOR"] } as const;
export const admins = { kind: "operator", anyOf: ["ADMIN"] } as const;
