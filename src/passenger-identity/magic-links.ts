/**
 * Path A of spec 5.2: the SMS link `{passenger_base_url}?token=<jwt>`. The link token is its own
 * kind of JWT (type `passenger-link+jwt`, its own audience), so it opens nothing but the exchange,
 * and a session token is no link. It lasts 7 days until exchanged, and is exchanged once: its
 * `jti` is remembered in the CounterStore until the link would have expired anyway.
 */
import type { TokenVerifier } from "../http/auth/token-verifier.js";
import { ForbiddenError, UnauthorizedError } from "../http/errors.js";
import type { Clock } from "../runtime/clock.js";
import type { CounterStore } from "../runtime/counter-store.js";
import { type CaseRevocations, caseClosed } from "./case-revocations.js";
import {
  issuedAt,
  type MintedSession,
  type PassengerGroupRef,
  type PassengerSessionTokens,
} from "./session-tokens.js";
import {
  type GroupTokenKind,
  groupTokenVerifier,
  signGroupToken,
  TOKEN_SKEW_SECONDS,
} from "./group-token.js";
import type { PassengerSigningKey } from "./signing-key.js";
import { randomUuid } from "../domain/uuid.js";

export const MAGIC_LINK_TTL_SECONDS = 7 * 24 * 60 * 60;
export const MAGIC_LINK_TOKEN_TYPE = "passenger-link+jwt";
const USED_KEY_PREFIX = "magic-link-used:";

export interface MagicLink {
  url: string;
  token: string;
  /** ISO 8601 UTC. */
  expiresAt: string;
}

export interface MagicLinkOptions {
  /** Where a tenant's links point (its own passenger host); the passenger app reads `token` from the query. */
  passengerSiteOf: (tenant: string) => string;
  issuer: string;
  /** Distinct from the session audience. */
  audience: string;
  key: PassengerSigningKey;
  sessions: PassengerSessionTokens;
  revocations: CaseRevocations;
  counters: CounterStore;
  clock: Clock;
}

export class MagicLinks {
  private readonly kind: GroupTokenKind;
  private readonly verifySignature: TokenVerifier;

  constructor(private readonly options: MagicLinkOptions) {
    this.kind = { ...options, typ: MAGIC_LINK_TOKEN_TYPE, ttlSeconds: MAGIC_LINK_TTL_SECONDS };
    this.verifySignature = groupTokenVerifier(this.kind);
  }

  async issueMagicLink(group: PassengerGroupRef): Promise<MagicLink> {
    if (await this.options.revocations.isClosed(group.caseUrn)) throw caseClosed();
    const linkId = randomUuid();
    const { token, expiresAt } = await signGroupToken(this.kind, group, {
      subject: `urn:magic-link:${linkId}`,
      jti: linkId,
    });
    const url = new URL(this.options.passengerSiteOf(group.tenant));
    url.searchParams.set("token", token);
    return { url: url.toString(), token, expiresAt: new Date(expiresAt * 1000).toISOString() };
  }

  /**
   * Spends the link on a session of its group. 401 when the link is invalid, expired, already used
   * or revoked with its case; 403 when the case is closed or the link belongs to another tenant's host.
   */
  async exchange(token: string, host: { tenant: string }): Promise<MintedSession> {
    const claims = await this.verifySignature(token);
    const linkId = stringClaim(claims.jti, "jti");
    const group: PassengerGroupRef = {
      tenant: stringClaim(claims.tenant, "tenant"),
      caseUrn: stringClaim(claims.case_urn, "case_urn"),
      groupId: stringClaim(claims.group_id, "group_id"),
    };
    if (group.tenant !== host.tenant) {
      throw new ForbiddenError("cross-tenant", "This link belongs to another airline's passenger site");
    }
    await this.options.revocations.assertTokenAlive(group.caseUrn, issuedAt(claims));
    const now = this.options.clock.now();
    const rememberForMs = Math.max(1, (claims.exp! + TOKEN_SKEW_SECONDS) * 1000 - now);
    if (!(await this.options.counters.setIfAbsent(USED_KEY_PREFIX + linkId, "1", rememberForMs))) {
      throw new UnauthorizedError("invalid_token", "This link has already been used; log in with your PNR");
    }
    return this.options.sessions.mint(group);
  }
}

function stringClaim(value: unknown, name: string): string {
  if (typeof value !== "string" || value === "") {
    throw new UnauthorizedError("invalid_token", `The link's ${name} claim is missing or not valid`);
  }
  return value;
}
