/**
 * Errors that already know their HTTP answer, thrown by the surfaces (authentication, request
 * reading); the problem middleware turns them into RFC 7807 bodies. Refusals decided below the
 * surfaces (who may act, a conflict, a vendor outage) are `DomainError`s or `CircuitOpenError`,
 * which problem.ts maps; these are the transport-level ones.
 */

/** The `{errors_url}/<category>/<code>` pair plus the status and members of one problem. */
export interface ProblemSpec {
  status: number;
  /** First path segment of the problem type, e.g. `conflict`. */
  category: string;
  /** Second path segment, a short slug, e.g. `sub-case-locked`. */
  code: string;
  detail: string;
  /** Extension members added to the problem body (spec part 7), e.g. `{ lockedBy, expiresInSeconds }`. */
  extensions?: Record<string, unknown>;
  /** Response headers that belong to the problem, e.g. `Retry-After`. */
  headers?: Record<string, string>;
}

export class ProblemError extends Error {
  readonly status: number;
  readonly category: string;
  readonly code: string;
  readonly extensions: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(spec: ProblemSpec) {
    super(spec.detail);
    this.name = "ProblemError";
    this.status = spec.status;
    this.category = spec.category;
    this.code = spec.code;
    this.extensions = spec.extensions ?? {};
    this.headers = spec.headers ?? {};
  }
}

/** The reasons spec part 7 allows in `WWW-Authenticate`. */
export type UnauthorizedReason = "invalid_token" | "expired_token" | "insufficient_scope";

/**
 * 401: token missing, invalid, expired or revoked, refresh reuse detected, bad webhook signature.
 * The reason travels in `WWW-Authenticate: Bearer error="..."` so clients know whether to refresh.
 */
export class UnauthorizedError extends ProblemError {
  readonly reason: UnauthorizedReason;

  constructor(reason: UnauthorizedReason, detail = defaultUnauthorizedDetail[reason]) {
    super({
      status: 401,
      category: "unauthorized",
      code: reason.replace("_", "-"),
      detail,
      headers: { "WWW-Authenticate": `Bearer error="${reason}"` },
    });
    this.name = "UnauthorizedError";
    this.reason = reason;
  }
}

const defaultUnauthorizedDetail: Record<UnauthorizedReason, string> = {
  invalid_token: "The access token is missing, malformed, revoked or not meant for this API",
  expired_token: "The access token has expired",
  insufficient_scope: "The access token does not carry the scope this operation requires",
};

/**
 * 403 refused by a surface while it authenticates: a passenger session or link of another airline's
 * site, or of a closed case. Who may act on a resource is decided in src/app (a forbidden DomainError).
 */
export class ForbiddenError extends ProblemError {
  constructor(code: string, detail: string, extensions?: Record<string, unknown>) {
    super({ status: 403, category: "forbidden", code, detail, ...(extensions ? { extensions } : {}) });
    this.name = "ForbiddenError";
  }
}
