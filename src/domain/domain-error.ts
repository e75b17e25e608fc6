/**
 * A refusal the domain can explain (a lock held by someone else, a stale fencing token, a bad
 * transition). It crosses actor and process boundaries as plain JSON, so the HTTP layer can turn
 * it into the matching RFC 7807 problem whichever runtime raised it.
 */
export type DomainErrorKind =
  | "invalid"
  | "not-found"
  | "conflict"
  | "forbidden"
  | "unprocessable"
  | "unavailable";

export interface DomainErrorShape {
  kind: DomainErrorKind;
  /** Short slug used in the problem type URI, e.g. `sub-case-locked`. */
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

export class DomainError extends Error {
  readonly kind: DomainErrorKind;
  readonly code: string;
  readonly details: Record<string, unknown> | undefined;

  constructor(kind: DomainErrorKind, code: string, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = "DomainError";
    this.kind = kind;
    this.code = code;
    this.details = details;
  }

  toShape(): DomainErrorShape {
    return {
      kind: this.kind,
      code: this.code,
      message: this.message,
      ...(this.details ? { details: this.details } : {}),
    };
  }

  static fromShape(shape: DomainErrorShape): DomainError {
    return new DomainError(shape.kind, shape.code, shape.message, shape.details);
  }

  static isShape(value: unknown): value is DomainErrorShape {
    const v = value as DomainErrorShape | null;
    return typeof v === "object" && v !== null && typeof v.kind === "string" && typeof v.code === "string";
  }
}
