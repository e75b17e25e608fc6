import type { ServiceRole } from "../domain/roles.js";

/** Who made a request, after the surface's token was verified. */
export type Principal = OperatorPrincipal | PartnerPrincipal | PassengerPrincipal;

export interface OperatorPrincipal {
  surface: "operator";
  /** `urn:user:<id>`, or `urn:service-token:<id>` for an ADMIN-minted service token. */
  actorUrn: string;
  tenant: string;
  role: ServiceRole;
  /** Set for airport-scoped operators and service tokens restricted to one airport. */
  airport?: string;
  /** Authentication methods (`amr`), e.g. ["pwd", "otp"]. */
  amr: string[];
  /** Grant id of the refresh-token family, for reuse revocation. */
  grantId?: string;
  tokenId?: string;
  expiresAt: number;
}

export interface PartnerPrincipal {
  surface: "partner";
  /** `urn:partner:<id>`. */
  actorUrn: string;
  clientId: string;
  tenant: string;
  scopes: ReadonlySet<string>;
  tier: 1 | 2 | 3;
  expiresAt: number;
}

export interface PassengerPrincipal {
  surface: "passenger";
  /** `urn:passenger-session:<uuid>`. */
  actorUrn: string;
  tenant: string;
  caseUrn: string;
  groupId: string;
  expiresAt: number;
}

/** What a route declares about who may call it; the auth middleware enforces it. */
export type Access =
  | { kind: "public" }
  /** Any valid token of any surface (e.g. GET /version). */
  | { kind: "any-token" }
  /** `anyOf`: the caller's role must be one of these or inherit one. */
  | { kind: "operator"; anyOf: readonly ServiceRole[]; airportScoped?: boolean }
  | { kind: "partner"; scope: string }
  | { kind: "passenger" };
