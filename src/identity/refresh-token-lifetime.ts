import { TOKEN_LIFETIME } from "../http/auth/claims.js";

/**
 * Seconds a new refresh token lives (spec 5.1, 8.2): 7 days of inactivity, each rotation starting a
 * new idle period, but never past 30 days from the family's first token (`iiat`).
 */
export function refreshTokenTtl(initialIssuedAt: number, now: number): number {
  const absoluteRemaining = initialIssuedAt + TOKEN_LIFETIME.refreshAbsolute - now;
  return Math.max(1, Math.min(TOKEN_LIFETIME.refreshIdle, absoluteRemaining));
}
