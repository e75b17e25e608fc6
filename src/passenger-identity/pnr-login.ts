/**
 * Path B of spec 5.2: POST /v1/auth/pnr-login. The checks run in this order, each before any
 * work of the next:
 *   1. attempt limits (429 with Retry-After), counted for every attempt;
 *   2. captcha (400 `captcha-required`, `captcha-invalid`, `captcha-expired` or `captcha-reused`:
 *      a malformed request, not a failed authentication, so the client fetches a new challenge
 *      rather than sending the passenger back to the form);
 *   3. PNR and last name (401 `pnr-login-failed`, one message whichever of the two is wrong);
 *   4. the case is not closed (403 `case-closed`);
 *   5. a session token of the same shape as the magic link gives.
 */
import { randomBytes } from "node:crypto";
import { ProblemError } from "../http/errors.js";
import type { Captcha, CaptchaRefusal } from "./captcha.js";
import { caseClosed } from "./case-revocations.js";
import type { LoginAttempts } from "./login-attempts.js";
import type { PassengerDirectory } from "./passenger-directory.js";
import type { PassengerSessionTokens } from "./session-tokens.js";

export interface PnrLoginInput {
  /** Airline URN of the passenger host the request came to. */
  tenant: string;
  pnr: string;
  lastName: string;
  /** The ALTCHA payload for a challenge from GET /v1/auth/captcha. */
  captcha: string;
  ip: string;
  /** The request's trace; one is made up when the caller has none. */
  correlationUrn?: string;
}

export interface PnrLoginResult {
  sessionToken: string;
  caseUrn: string;
  /** ISO 8601 UTC. */
  expiresAt: string;
}

export interface PnrLoginDeps {
  attempts: LoginAttempts;
  captcha: Captcha;
  directory: PassengerDirectory;
  sessions: PassengerSessionTokens;
}

export class PnrLogin {
  constructor(private readonly deps: PnrLoginDeps) {}

  async login(input: PnrLoginInput): Promise<PnrLoginResult> {
    const correlationUrn = input.correlationUrn ?? `urn:trace:${randomBytes(16).toString("hex")}`;
    await this.deps.attempts.count({ tenant: input.tenant, pnr: input.pnr, ip: input.ip, correlationUrn });
    const verdict = await this.deps.captcha.verifySolution(input.captcha);
    if (!verdict.verified) throw captchaRefused(verdict.refusal);
    const group = await this.deps.directory.findGroupByPnr(input.tenant, input.pnr, input.lastName);
    if (!group) throw loginFailed();
    if (group.caseStatus === "CLOSED") throw caseClosed();
    const session = await this.deps.sessions.mint({
      tenant: input.tenant,
      caseUrn: group.caseUrn,
      groupId: group.groupId,
    });
    return { sessionToken: session.token, caseUrn: session.caseUrn, expiresAt: session.expiresAt };
  }
}

const CAPTCHA_PROBLEMS: Record<CaptchaRefusal, { code: string; detail: string }> = {
  missing: { code: "captcha-required", detail: "Solve the captcha challenge before logging in" },
  malformed: { code: "captcha-invalid", detail: "The captcha solution is not one this service issued" },
  unsolved: { code: "captcha-invalid", detail: "The captcha challenge was not solved" },
  expired: { code: "captcha-expired", detail: "The captcha challenge has expired; solve a new one" },
  reused: { code: "captcha-reused", detail: "This captcha solution was already used; solve a new one" },
};

function captchaRefused(refusal: CaptchaRefusal): ProblemError {
  const { code, detail } = CAPTCHA_PROBLEMS[refusal];
  return new ProblemError({ status: 400, category: "invalid", code, detail });
}

/** Says nothing of which part was wrong, so the form cannot be used to find valid PNRs. */
function loginFailed(): ProblemError {
  return new ProblemError({
    status: 401,
    category: "unauthorized",
    code: "pnr-login-failed",
    detail: "No booking matches this PNR and last name",
    headers: { "WWW-Authenticate": 'Bearer realm="passenger"' },
  });
}
