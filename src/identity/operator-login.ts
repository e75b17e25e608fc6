import type { Clock } from "../runtime/clock.js";
import { MFA_REQUIRED_ROLES } from "../http/auth/claims.js";
import type { Directory, DirectoryUser } from "../app/directory.js";
import { verifyTotp } from "./totp.js";

export interface LoginAttempt {
  username: string;
  password: string;
  /** TOTP code; mandatory for the roles in MFA_REQUIRED_ROLES. */
  otp?: string;
}

export type LoginOutcome = { ok: true; user: DirectoryUser; amr: string[] } | { ok: false; reason: string };

const MFA_ROLES: ReadonlySet<string> = new Set(MFA_REQUIRED_ROLES);

/**
 * One login decision for both the password grant and the console's login page: password, then
 * organization membership (default deny, spec 5.1), then the second factor where the role requires it.
 */
export async function checkOperatorLogin(
  directory: Directory,
  clock: Clock,
  attempt: LoginAttempt,
): Promise<LoginOutcome> {
  const user = await directory.verifyPassword(attempt.username, attempt.password);
  if (!user) return { ok: false, reason: "invalid username or password" };
  if (!user.membership) return { ok: false, reason: "the user is not a member of any organization" };
  const otp = attempt.otp?.trim();
  if (otp) {
    if (!user.totpSecret || !verifyTotp(user.totpSecret, otp, clock.now())) {
      return { ok: false, reason: "invalid one-time code" };
    }
    return { ok: true, user, amr: ["pwd", "otp"] };
  }
  if (MFA_ROLES.has(user.membership.role)) {
    return {
      ok: false,
      reason: `multi-factor authentication is required for role ${user.membership.role}: provide the TOTP code (otp)`,
    };
  }
  return { ok: true, user, amr: ["pwd"] };
}
