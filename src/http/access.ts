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
