/**
 * The vendor's side of OAuth 2.0 client credentials: it knows its API clients, issues bearer tokens
 * that live 30 minutes (spec 5.6) and refuses unknown, revoked or expired ones with 401.
 */
import type { Clock } from "../../src/runtime/clock.js";
import { SeededRandom } from "../../src/domain/seeded-random.js";
import type { ClientCredentials } from "../../src/vendors/vendor-adapter.js";

export const VENDOR_TOKEN_LIFETIME_SECONDS = 30 * 60;

export interface IssuedToken {
  accessToken: string;
  expiresInSeconds: number;
}

export type TokenCheck =
  | { valid: true; clientId: string }
  | { valid: false; reason: "invalid_token" | "expired_token" };

export class TokenIssuer {
  private readonly tokens = new Map<string, { clientId: string; expiresAt: number }>();
  private readonly random: SeededRandom;
  private issued = 0;

  constructor(
    private readonly clients: readonly ClientCredentials[],
    private readonly clock: Clock,
    seed: string,
    private readonly lifetimeSeconds = VENDOR_TOKEN_LIFETIME_SECONDS,
  ) {
    this.random = new SeededRandom(seed);
  }

  /** Undefined when the client is unknown or the secret is wrong. */
  issue(clientId: string, clientSecret: string): IssuedToken | undefined {
    const client = this.clients.find((c) => c.clientId === clientId);
    if (!client || client.clientSecret !== clientSecret) return undefined;
    const accessToken = Array.from({ length: 4 }, () =>
      this.random.int(0, 0xffffffff).toString(16).padStart(8, "0"),
    ).join("");
    this.issued++;
    this.tokens.set(accessToken, { clientId, expiresAt: this.clock.now() + this.lifetimeSeconds * 1000 });
    return { accessToken, expiresInSeconds: this.lifetimeSeconds };
  }

  check(authorization: string | undefined): TokenCheck {
    const token = authorization?.startsWith("Bearer ") ? authorization.slice("Bearer ".length) : undefined;
    const issued = token ? this.tokens.get(token) : undefined;
    if (!issued) return { valid: false, reason: "invalid_token" };
    if (this.clock.now() >= issued.expiresAt) return { valid: false, reason: "expired_token" };
    return { valid: true, clientId: issued.clientId };
  }

  /** Forgets every token, as a vendor does after a key rotation or restart: the next call gets 401. */
  revokeAll(): void {
    this.tokens.clear();
  }

  /** How many tokens were issued so far: tells how often clients came back for one. */
  issuedCount(): number {
    return this.issued;
  }
}
