/** Namespaced claim names (spec 5.1, 5.3); the https://svc/ prefix is reserved for them. */
export const CLAIM = {
  airline: "https://svc/airline",
  role: "https://svc/role",
  operatorUrn: "https://svc/operator_urn",
  airport: "https://svc/airport",
  partnerUrn: "https://svc/partner_urn",
  tenantUrn: "https://svc/tenant_urn",
  serviceToken: "https://svc/service_token",
} as const;

/** Scopes of an operator access token (spec 5.1). */
export const OPERATOR_SCOPE = "openid profile email";

/** Spec 5.1: these roles must authenticate with a second factor; their tokens show it in `amr` (amrShowsSecondFactor). */
export const MFA_REQUIRED_ROLES = ["ADMIN", "OPS_SUPERVISOR", "FINANCE_AUDIT"] as const;

/** Access-token lifetimes in seconds (spec 8.2). */
export const TOKEN_LIFETIME = {
  operatorAccess: 15 * 60,
  partnerAccess: 60 * 60,
  refreshAbsolute: 30 * 24 * 60 * 60,
  refreshIdle: 7 * 24 * 60 * 60,
} as const;
