import { Secret, TOTP } from "otpauth";

/**
 * Checks a 6-digit RFC 6238 code (SHA-1, 30 s period) at time `at` (ms), accepting the neighbouring
 * period on either side for clock drift between the user's device and the server.
 */
export function verifyTotp(secretBase32: string, code: string, at: number): boolean {
  if (!/^\d{6}$/.test(code)) return false;
  const delta = TOTP.validate({
    token: code,
    secret: Secret.fromBase32(secretBase32),
    timestamp: at,
    window: 1,
  });
  return delta !== null;
}

/** The current code for a secret; used by demo scripts and tests. */
export function totpCode(secretBase32: string, at: number): string {
  return TOTP.generate({ secret: Secret.fromBase32(secretBase32), timestamp: at });
}
