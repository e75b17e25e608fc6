/**
 * A downstream domain (booking, inventory, wallet...) is behind an open circuit breaker. Spec part 7:
 * 503 with `failedDomain` and `Retry-After: 30`; clients must not retry automatically.
 * Recognised by name and shape too, so an adapter may throw its own error of the same shape.
 */
export class CircuitOpenError extends Error {
  readonly failedDomain: string;

  constructor(failedDomain: string, message = `The ${failedDomain} service is temporarily unavailable`) {
    super(message);
    this.name = "CircuitOpenError";
    this.failedDomain = failedDomain;
  }

  static is(error: unknown): error is CircuitOpenError {
    const e = error as CircuitOpenError | null;
    return typeof e === "object" && e?.name === "CircuitOpenError" && typeof e.failedDomain === "string";
  }
}
