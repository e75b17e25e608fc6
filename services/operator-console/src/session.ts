/**
 * The signed-in operator, in memory only (spec 5.1: "memory plus httpOnly cookie; local storage
 * forbidden"): the access token lives in this module, the refresh token in an httpOnly cookie the
 * identity provider sets and JavaScript never sees. A reload starts empty and asks the identity
 * provider for a new access token with that cookie (see auth.ts).
 */
import { useEffect, useState } from "preact/hooks";
import { type Operator, operatorOf } from "./claims.js";
import { type Role, roleSatisfies } from "./roles.js";

export type { Operator } from "./claims.js";
export type { Role } from "./roles.js";

interface State {
  accessToken?: string;
  operator: Operator | null;
  /** Why the last session ended when the operator did not log out (shown on the sign-in screen). */
  endedBecause?: string;
}

let state: State = { operator: null };
const listeners = new Set<() => void>();

function update(next: State): void {
  state = next;
  for (const listener of [...listeners]) listener();
}

/** Starts or renews the session with the tokens of a token response; false when they are not an operator's. */
export function signIn(accessToken: string, idToken?: string): boolean {
  const operator = operatorOf(accessToken, idToken);
  if (!operator) return false;
  // A refresh keeps the e-mail of the login when the response has no ID token.
  const email = idToken || !state.operator ? operator.email : state.operator.email;
  update({ accessToken, operator: { ...operator, email } });
  return true;
}

/** Forgets everything (logout step 3, or a session the identity provider ended). */
export function clearSession(endedBecause?: string): void {
  update({ operator: null, ...(endedBecause ? { endedBecause } : {}) });
}

export function accessToken(): string | undefined {
  return state.accessToken;
}

export function currentOperator(): Operator | null {
  return state.operator;
}

export function sessionEndedBecause(): string | undefined {
  return state.endedBecause;
}

/** Called on every change of the session (sign-in, refresh, end). Returns the unsubscribe function. */
export function onSessionChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The signed-in operator, re-rendering on sign-in, refresh and logout. */
export function useSession(): Operator | null {
  const [operator, setOperator] = useState(state.operator);
  useEffect(() => {
    setOperator(state.operator);
    return onSessionChange(() => setOperator(state.operator));
  }, []);
  return operator;
}

/** Whether the operator's role is `minimum` or inherits it (spec part 4's "X+"). */
export function roleAtLeast(operator: Operator | null, minimum: Role): boolean {
  return roleSatisfies(operator?.role, minimum);
}

/**
 * Whether the operator's role may take an action open to `allowed` (each with what inherits it):
 * e.g. `can(operator, ["FINANCE_AUDIT", "OPS_SUPERVISOR"])` for the audit routes. The API still decides.
 */
export function can(operator: Operator | null, allowed: Role | readonly Role[]): boolean {
  return roleSatisfies(operator?.role, allowed);
}
