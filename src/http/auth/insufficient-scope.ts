import type { PartnerPrincipal } from "../../app/principals.js";
import { ProblemError } from "../errors.js";

/**
 * 403 for a partner whose token lacks the route's scope; RFC 6750 names the reason in
 * `WWW-Authenticate` so the client knows to ask for another registration scope, not a new token.
 */
export class InsufficientScopeError extends ProblemError {
  constructor(readonly scope: string) {
    super({
      status: 403,
      category: "forbidden",
      code: "insufficient-scope",
      detail: `This operation requires the scope ${scope}`,
      headers: { "WWW-Authenticate": `Bearer error="insufficient_scope", scope="${scope}"` },
    });
    this.name = "InsufficientScopeError";
  }
}

export function assertScope(principal: PartnerPrincipal, scope: string): void {
  if (!principal.scopes.has(scope)) throw new InsufficientScopeError(scope);
}
