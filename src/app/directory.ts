import type { OperatorRole } from "../domain/roles.js";
import type { AirportOperatorMfa } from "../domain/second-factors.js";

/**
 * Who may obtain tokens: operator users with their organization membership, the airlines
 * (organizations) and partner client registrations. The embedded default reads demo data;
 * production replaces it with the real user store, so the identity provider only ever sees this port.
 */
export interface Directory {
  /** The user whose username and password match, or undefined. */
  verifyPassword(username: string, password: string): Promise<DirectoryUser | undefined>;
  findUser(userId: string): Promise<DirectoryUser | undefined>;
  organizations(): Promise<Organization[]>;
  findOrganization(airlineUrn: string): Promise<Organization | undefined>;
  partnerRegistrations(): Promise<PartnerRegistration[]>;
  findPartnerRegistration(clientId: string): Promise<PartnerRegistration | undefined>;
}

export interface Airport {
  /** IATA code, e.g. JFK. */
  code: string;
  name: string;
  city: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  lat: number;
  lon: number;
}

/** The airport of that IATA code, whichever airline of the directory serves it. */
export async function airportByCode(directory: Directory, code: string): Promise<Airport | undefined> {
  const organizations = await directory.organizations();
  return organizations.flatMap((o) => o.airports).find((a) => a.code === code);
}

/** An airline is one organization and one tenant. */
export interface Organization {
  /** `urn:airline:<IATA code>`; the tenant identifier stamped in tokens. */
  airlineUrn: string;
  /** Two-letter airline code. */
  code: string;
  name: string;
  /**
   * ISO 3166-1 alpha-2 of the state that licenses the airline: whether it is an EU or a UK carrier,
   * which decides passenger rights on flights into the EU or UK (src/domain/entitlements).
   */
  country?: string;
  airports: Airport[];
  /** Where on-call is paged (spec 3.5: an SLA breach pages on-call via the tenant alerting channel). */
  alerting?: AlertContact;
  /** When its AIRPORT_OPERATORs need a second factor (spec 5.1); `on-risk` when absent. */
  airportOperatorMfa?: AirportOperatorMfa;
}

/**
 * Where alerts reach someone: a signed webhook (HMAC like the partner webhooks, spec 6.1), an
 * e-mail address, or both.
 */
export interface AlertContact {
  webhookUrl?: string;
  /** Signs the webhook's body; required with `webhookUrl`. */
  webhookSecret?: string;
  email?: string;
}

/** One role per user per organization (spec 5.1). */
export interface Membership {
  airlineUrn: string;
  role: OperatorRole;
  /** Restricts an AIRPORT_OPERATOR to one airport's cases. */
  airport?: string;
}

export interface DirectoryUser {
  id: string;
  username: string;
  email: string;
  /** Absent for a user who belongs to no organization: such a user cannot log in. */
  membership?: Membership;
  /** Base32 TOTP secret (RFC 6238, SHA-1, 6 digits, 30 s) when the user enrolled a TOTP factor. */
  totpSecret?: string;
  /**
   * E.164 number enrolled for one-time codes by SMS: a second factor of last resort (spec 5.1),
   * never accepted for ADMIN.
   */
  smsNumber?: string;
}

export interface PartnerRegistration {
  clientId: string;
  clientSecret: string;
  /** The secret being rotated out, accepted until `acceptedUntil` (the 14-day dual-key window). */
  previousSecret?: { value: string; acceptedUntil: number };
  /** `urn:partner:<id>`; one partner may hold one registration per airline. */
  partnerUrn: string;
  airlineUrn: string;
  scopes: string[];
  tier: 1 | 2 | 3;
  /** The partner's contact: told of a paused webhook subscription and of PNR-login lockouts (spec 6.1, 8.1). */
  contact?: AlertContact;
}
