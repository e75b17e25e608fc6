/**
 * A circuit breaker per vendor and domain. Closed: calls pass, and N consecutive transient
 * failures open it. Open: calls are refused at once with `CircuitOpenError(domain)`, which the HTTP
 * layer answers as spec part 7's 503 with `failedDomain` and `Retry-After: 30`. After the cool-down
 * it is half-open: one trial call passes (others are still refused); its success closes the
 * circuit, its failure opens it for another cool-down.
 */
import { CircuitOpenError } from "./circuit-open-error.js";
import type { Clock } from "../runtime/clock.js";

export type CircuitState = "closed" | "open" | "half-open";

export interface BreakerSettings {
  /** Consecutive transient failures that open the circuit. */
  failureThreshold: number;
  /** Time open before a trial call; matches the Retry-After the 503 announces. */
  coolDownMs: number;
}

export const DEFAULT_BREAKER: BreakerSettings = { failureThreshold: 5, coolDownMs: 30_000 };

export class CircuitBreaker {
  private consecutiveFailures = 0;
  private openedAt: number | undefined;
  private trialRunning = false;

  constructor(
    /** Who is behind the circuit, for messages, e.g. `vendor-a`. */
    private readonly name: string,
    /** The failedDomain reported while open, e.g. `booking`. */
    readonly domain: string,
    private readonly clock: Clock,
    private readonly settings: BreakerSettings = DEFAULT_BREAKER,
  ) {}

  state(): CircuitState {
    if (this.openedAt === undefined) return "closed";
    return this.clock.now() >= this.openedAt + this.settings.coolDownMs ? "half-open" : "open";
  }

  /**
   * Runs `call` unless the circuit refuses it. `isFailure` tells which errors count against the
   * vendor; any other outcome, errors included, shows the vendor is answering.
   */
  async run<T>(call: () => Promise<T>, isFailure: (error: unknown) => boolean): Promise<T> {
    const state = this.state();
    if (state === "open" || (state === "half-open" && this.trialRunning)) {
      throw new CircuitOpenError(
        this.domain,
        `${this.name} ${this.domain} is temporarily unavailable (circuit open)`,
      );
    }
    const trial = state === "half-open";
    if (trial) this.trialRunning = true;
    try {
      const result = await call();
      this.succeeded();
      return result;
    } catch (error) {
      if (isFailure(error)) this.failed(trial);
      else this.succeeded();
      throw error;
    } finally {
      if (trial) this.trialRunning = false;
    }
  }

  private succeeded(): void {
    this.consecutiveFailures = 0;
    this.openedAt = undefined;
  }

  private failed(trial: boolean): void {
    this.consecutiveFailures++;
    if (trial || this.consecutiveFailures >= this.settings.failureThreshold) {
      this.openedAt = this.clock.now();
    }
  }
}
