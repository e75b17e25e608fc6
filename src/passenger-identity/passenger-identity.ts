/**
 * Builds the passenger identity from storage, a clock and its own settings. Nothing here knows the
 * operator identity provider: passenger login keeps working while it is down (spec 5).
 */
import { randomBytes } from "node:crypto";
import type { JSONWebKeySet, JWK } from "jose";
import type { Route } from "../http/route.js";
import type { Clock } from "../runtime/clock.js";
import type { CounterStore } from "../runtime/counter-store.js";
import type { DocumentStore } from "../runtime/document-store.js";
import { Captcha, type CaptchaComplexity } from "./captcha.js";
import { CaseRevocations } from "./case-revocations.js";
import { DocumentPassengerDirectory } from "./document-passenger-directory.js";
import { type LoginAttemptLimits, LoginAttempts, type LoginLockedEvent } from "./login-attempts.js";
import { MagicLinks } from "./magic-links.js";
import type { PassengerDirectory } from "./passenger-directory.js";
import { PnrLogin } from "./pnr-login.js";
import { type PassengerAuthRouteDeps, passengerAuthRoutes } from "./routes.js";
import { PassengerSessionTokens } from "./session-tokens.js";
import { loadPassengerSigningKey } from "./signing-key.js";

export interface PassengerIdentityOptions {
  /** {passenger_base_url}: issuer of the tokens. */
  passengerBaseUrl: string;
  /**
   * Each airline's own passenger site (spec 1: a per-tenant host), where its magic links point: a
   * link is spent on its own airline's host only. `passengerBaseUrl` for every tenant unless told.
   */
  passengerSiteOf?: (tenant: string) => string;
  /** {passenger_audience}; `<passengerBaseUrl>/v1` unless told. */
  audience?: string;
  /** Private Ed25519 JWK; a fresh key per process when absent (sessions end with the process). */
  signingKey?: JWK;
  /** Captcha HMAC secret; a random one per process when absent (one instance only). */
  captchaSecret?: string;
  captchaComplexity?: CaptchaComplexity;
  loginLimits?: LoginAttemptLimits;
  /** Where logins are looked up; the `passenger-logins` collection of `documents` unless told. */
  directory?: PassengerDirectory;
  onLoginLocked: (event: LoginLockedEvent) => Promise<void>;
  counters: CounterStore;
  documents: DocumentStore;
  clock: Clock;
}

export interface PassengerIdentity {
  sessions: PassengerSessionTokens;
  magicLinks: MagicLinks;
  captcha: Captcha;
  login: PnrLogin;
  revocations: CaseRevocations;
  directory: PassengerDirectory;
  /** Public keys of the session and link tokens. */
  jwks: JSONWebKeySet;
  audience: string;
  issuer: string;
  routes(tenantOf: PassengerAuthRouteDeps["tenantOf"]): Route[];
}

export async function createPassengerIdentity(options: PassengerIdentityOptions): Promise<PassengerIdentity> {
  const { counters, documents, clock } = options;
  const issuer = options.passengerBaseUrl.replace(/\/+$/, "");
  const audience = options.audience ?? `${issuer}/v1`;
  const key = await loadPassengerSigningKey(options.signingKey);
  const revocations = new CaseRevocations(documents);
  const sessions = new PassengerSessionTokens({ issuer, audience, key, revocations, clock });
  const magicLinks = new MagicLinks({
    passengerSiteOf: options.passengerSiteOf ?? (() => issuer),
    issuer,
    audience: `${audience}/auth/magic-link`,
    key,
    sessions,
    revocations,
    counters,
    clock,
  });
  const captcha = new Captcha({
    hmacSecret: options.captchaSecret ?? randomBytes(32).toString("hex"),
    counters,
    clock,
    complexity: options.captchaComplexity,
  });
  const attempts = new LoginAttempts({
    counters,
    clock,
    onLoginLocked: options.onLoginLocked,
    limits: options.loginLimits,
  });
  const directory = options.directory ?? new DocumentPassengerDirectory(documents);
  const login = new PnrLogin({ attempts, captcha, directory, sessions });
  return {
    sessions,
    magicLinks,
    captcha,
    login,
    revocations,
    directory,
    jwks: key.publicJwks,
    audience,
    issuer,
    routes: (tenantOf) =>
      passengerAuthRoutes({
        captcha,
        login,
        magicLinks,
        tenantOf,
        secureCookies: issuer.startsWith("https:"),
      }),
  };
}
