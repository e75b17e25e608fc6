import type { ServiceRole } from "../domain/roles.js";

/**
 * Who is acting (spec part 4 and 5): an operator with one role (inheritance in domain/roles.ts),
 * a partner registration with its scopes and tier, or a passenger session for one group of one case.
 * The surfaces build it from a verified token; use cases decide with it (see authorization.ts).
 */
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
