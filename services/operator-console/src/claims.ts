/**
 * The signed-in operator as the access token describes it (spec 5.1): the namespaced claims for
 * airline, role and operator URN, the airport of an airport-scoped operator, and the e-mail of the
 * ID token. The console reads them to render; it never verifies them (the API does).
 */
import { isRole, type Role } from "./roles.js";

export interface Operator {
  role: Role;
  /** The airline URN (`urn:airline:ZX`). */
  airline: string;
  /** `urn:user:<id>`: what a sub-case's `lockedBy` names. */
  operatorUrn: string;
  email: string;
  /** Present for an operator restricted to one airport. */
  airport?: string;
  /** When the access token expires (epoch ms). */
  expiresAt: number;
}

const CLAIM = {
  airline: "https://svc/airline",
  role: "https://svc/role",
  operatorUrn: "https://svc/operator_urn",
  airport: "https://svc/airport",
} as const;

/** The payload of a JWT, or undefined when it is not one. */
export function jwtPayload(token: string): Record<string, unknown> | undefined {
  const part = token.split(".")[1];
  if (!part) return undefined;
  try {
    const base64 = part
      .replace(/-/g, "+")
      .replace(/_/g, "/")
      .padEnd(Math.ceil(part.length / 4) * 4, "=");
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const payload: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return typeof payload === "object" && payload !== null ? (payload as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The operator of an access token (and its ID token, for the e-mail), or undefined when it is not one. */
export function operatorOf(accessToken: string, idToken?: string): Operator | undefined {
  const claims = jwtPayload(accessToken);
  if (!claims) return undefined;
  const role = claims[CLAIM.role];
  const airline = claims[CLAIM.airline];
  const operatorUrn = claims[CLAIM.operatorUrn];
  if (!isRole(role) || typeof airline !== "string" || typeof operatorUrn !== "string") return undefined;
  const email = (idToken ? jwtPayload(idToken)?.email : undefined) ?? claims.email;
  const airport = claims[CLAIM.airport];
  return {
    role,
    airline,
    operatorUrn,
    email: typeof email === "string" ? email : operatorUrn,
    ...(typeof airport === "string" ? { airport } : {}),
    expiresAt: typeof claims.exp === "number" ? claims.exp * 1000 : 0,
  };
}
