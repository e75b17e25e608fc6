import type { Clock } from "../runtime/clock.js";
import type { Directory, DirectoryUser, Membership } from "../app/directory.js";
import type { OperatorPasskeys } from "../app/operator-factors/operator-passkeys.js";
import type { SignInHistories } from "../app/operator-factors/sign-in-history.js";
import {
  AMR_OF_FACTOR,
  DEFAULT_AIRPORT_OPERATOR_MFA,
  type FactorDecision,
  NO_RISK,
  requiredSecondFactors,
  type SecondFactor,
  type SignInPlace,
} from "../domain/second-factors.js";
import type { SignInRiskAssessor } from "./sign-in-risk.js";
import { verifyTotp } from "./totp.js";

/** What every operator sign-in reads: the users, their factors, their history and the risk tables. */
export interface OperatorSignIn {
  directory: Directory;
  clock: Clock;
  passkeys: OperatorPasskeys;
  histories: SignInHistories;
  assessRisk: SignInRiskAssessor;
}

export interface PasswordAttempt {
  username: string;
  password: string;
  /** The client's address, for the high-risk list and the location table. */
  address: string;
  /** The browser's device cookie; scripts on the password grant keep none. */
  device?: string;
}

export type MemberUser = DirectoryUser & { membership: Membership };

export type PasswordOutcome =
  | {
      ok: true;
      user: MemberUser;
      decision: Exclude<FactorDecision, { kind: "refused" }>;
      place?: SignInPlace;
    }
  | { ok: false; reason: string };

/**
 * The first step of every operator sign-in: password, organization membership (default deny,
 * spec 5.1), then which second factor the sign-in needs (src/domain/second-factors.ts) given what
 * the user enrolled, the airline's setting and the risk signals.
 */
export async function checkPassword(
  signIn: OperatorSignIn,
  attempt: PasswordAttempt,
): Promise<PasswordOutcome> {
  const { directory, clock, histories, assessRisk } = signIn;
  const found = await directory.verifyPassword(attempt.username, attempt.password);
  if (!found) return { ok: false, reason: "invalid username or password" };
  if (!found.membership) return { ok: false, reason: "the user is not a member of any organization" };
  const user = found as MemberUser;
  const { airlineUrn, role } = user.membership;
  const [organization, history, enrolled] = await Promise.all([
    directory.findOrganization(airlineUrn),
    histories.find(airlineUrn, user.id),
    enrolledFactors(signIn, user),
  ]);
  const risk = assessRisk(
    { address: attempt.address, at: clock.now(), ...(attempt.device ? { device: attempt.device } : {}) },
    history,
  );
  const decision = requiredSecondFactors({
    role,
    airportOperatorMfa: organization?.airportOperatorMfa ?? DEFAULT_AIRPORT_OPERATOR_MFA,
    enrolled,
    risk: risk.signals,
  });
  if (decision.kind === "refused") return { ok: false, reason: decision.reason };
  return { ok: true, user, decision, ...(risk.place ? { place: risk.place } : {}) };
}

export async function enrolledFactors(
  { passkeys }: Pick<OperatorSignIn, "passkeys">,
  user: MemberUser,
): Promise<Set<SecondFactor>> {
  return factorsOf(user, (await passkeys.list(user.membership.airlineUrn, user.id)).length);
}

/** The second factors of a user holding `passkeyCount` passkeys. */
export function factorsOf(user: DirectoryUser, passkeyCount: number): Set<SecondFactor> {
  const enrolled = new Set<SecondFactor>();
  if (passkeyCount > 0) enrolled.add("webauthn");
  if (user.totpSecret) enrolled.add("totp");
  if (user.smsNumber) enrolled.add("sms");
  return enrolled;
}

/**
 * Whether the user could still sign in, risk aside, with only `enrolled`: a factor their role (or
 * airline) requires must not be removed when it is the last one.
 */
export async function signInStillPossible(
  directory: Directory,
  user: MemberUser,
  enrolled: ReadonlySet<SecondFactor>,
): Promise<boolean> {
  const organization = await directory.findOrganization(user.membership.airlineUrn);
  const decision = requiredSecondFactors({
    role: user.membership.role,
    airportOperatorMfa: organization?.airportOperatorMfa ?? DEFAULT_AIRPORT_OPERATOR_MFA,
    enrolled,
    risk: NO_RISK,
  });
  return decision.kind !== "refused";
}

export function checkTotp(user: DirectoryUser, code: string, clock: Clock): boolean {
  return user.totpSecret !== undefined && verifyTotp(user.totpSecret, code.trim(), clock.now());
}

/** Remembers a completed sign-in, for the next one's risk signals. */
export async function recordSignIn(
  { histories }: Pick<OperatorSignIn, "histories">,
  user: MemberUser,
  sighting: { device?: string; place?: SignInPlace },
): Promise<void> {
  await histories.record(user.membership.airlineUrn, user.id, sighting);
}

export interface LoginAttempt extends PasswordAttempt {
  /** TOTP code, for the sign-ins that need a second factor. */
  otp?: string;
}

export type LoginOutcome = { ok: true; user: MemberUser; amr: string[] } | { ok: false; reason: string };

/**
 * A sign-in in one request (the password grant for scripts and tests, or the login form with its
 * one-time code filled in): password, and the TOTP code when a second factor is needed. A passkey
 * cannot be presented this way; such users sign in on the login page.
 */
export async function checkOperatorLogin(
  signIn: OperatorSignIn,
  attempt: LoginAttempt,
): Promise<LoginOutcome> {
  const first = await checkPassword(signIn, attempt);
  if (!first.ok) return first;
  const { user, decision } = first;
  const otp = attempt.otp?.trim();
  if (otp) {
    if (!checkTotp(user, otp, signIn.clock)) return { ok: false, reason: "invalid one-time code" };
  } else if (decision.kind === "one-of") {
    return {
      ok: false,
      reason: `multi-factor authentication is required (${decision.why}): ${howToAnswer(decision.factors)}`,
    };
  }
  await recordSignIn(signIn, user, {
    ...(attempt.device ? { device: attempt.device } : {}),
    ...(first.place ? { place: first.place } : {}),
  });
  return { ok: true, user, amr: otp ? ["pwd", AMR_OF_FACTOR.totp] : ["pwd"] };
}

function howToAnswer(factors: readonly SecondFactor[]): string {
  if (factors.includes("totp")) return "provide the TOTP code (otp)";
  if (factors.includes("webauthn")) return "this account confirms with a passkey: sign in on the login page";
  return "this account confirms with a code by SMS, which only the login page sends: sign in there";
}
