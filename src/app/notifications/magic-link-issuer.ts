/**
 * Spec 5.2 path A: what the notifier needs of the passenger identity's magic links (implemented by
 * src/passenger-identity/magic-links.ts, bound by the notifications module).
 */
export interface MagicLinkIssuer {
  issueMagicLink(group: { tenant: string; caseUrn: string; groupId: string }): Promise<{
    url: string;
    /** ISO 8601 UTC. */
    expiresAt: string;
  }>;
}
