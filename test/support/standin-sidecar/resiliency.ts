import { readFileSync } from "node:fs";
import { parseAllDocuments } from "yaml";
import { parseDuration } from "./duration.js";

/** A retry policy of a Resiliency document (`spec.policies.retries.<name>`), as daprd 1.16 reads it. */
export interface RetrySpec {
  policy?: "constant" | "exponential";
  duration?: string;
  initialInterval?: string;
  randomizationFactor?: number | string;
  multiplier?: number | string;
  maxInterval?: string;
  maxElapsedTime?: string;
  /** -1 (the default) retries without end; 0 never retries. */
  maxRetries?: number | string;
}

interface PolicyNames {
  retry?: string;
  timeout?: string;
  circuitBreaker?: string;
}

/** A `kind: Resiliency` document, the shape of the file daprd loads from its resources path. */
export interface ResiliencyDocument {
  apiVersion?: string;
  kind?: "Resiliency";
  metadata?: { name?: string };
  /** App ids whose sidecars load the document; every sidecar when absent. */
  scopes?: string[];
  spec: {
    policies?: { retries?: Record<string, RetrySpec> };
    targets?: { components?: Record<string, { inbound?: PolicyNames; outbound?: PolicyNames }> };
  };
}

/** The Resiliency documents of a resource file, as daprd loads them from its resources path. */
export function resiliencyFrom(file: string): ResiliencyDocument[] {
  return parseAllDocuments(readFileSync(file, "utf8"))
    .map((document) => document.toJS() as ResiliencyDocument)
    .filter((document) => document?.kind === "Resiliency");
}

/** Names daprd 1.16 tries, in order, when a pub/sub component has no inbound target of its own. */
const DEFAULT_INBOUND_PUBSUB_RETRIES = [
  "DefaultPubsubComponentInboundRetryPolicy",
  "DefaultComponentInboundRetryPolicy",
  "DefaultComponentRetryPolicy",
  "DefaultRetryPolicy",
];

/**
 * The retry policy daprd 1.16 wraps around each delivery of `component` to `appId`: the
 * component's inbound target, else the first default policy that exists; none when no document in
 * scope declares one (then a delivery is tried once).
 */
export function inboundPubsubRetry(
  documents: readonly ResiliencyDocument[],
  appId: string,
  component: string,
): RetrySpec | undefined {
  const loaded = documents.filter((d) => !d.scopes?.length || d.scopes.includes(appId));
  const retries = Object.assign({}, ...loaded.map((d) => d.spec.policies?.retries ?? {})) as Record<
    string,
    RetrySpec
  >;
  const targets = Object.assign({}, ...loaded.map((d) => d.spec.targets?.components ?? {})) as Record<
    string,
    { inbound?: PolicyNames }
  >;
  const target = targets[component];
  if (target) {
    const name = target.inbound?.retry;
    return name ? retries[name] : undefined;
  }
  const fallback = DEFAULT_INBOUND_PUBSUB_RETRIES.find((name) => retries[name]);
  return fallback ? retries[fallback] : undefined;
}

/**
 * One delivery's backoff, as dapr/kit's retry config builds it: a constant delay, or an
 * exponential one with randomization, a ceiling and an elapsed-time limit; `maxRetries` bounds both.
 */
export class Backoff {
  private retries = 0;
  private current: number;
  private readonly startedAt: number;
  private readonly exponential: boolean;
  private readonly constantMs: number;
  private readonly randomization: number;
  private readonly multiplier: number;
  private readonly maxIntervalMs: number;
  private readonly maxElapsedMs: number;
  private readonly maxRetries: number;

  constructor(
    spec: RetrySpec,
    private readonly now: () => number,
    private readonly random: () => number,
  ) {
    this.exponential = spec.policy === "exponential";
    this.constantMs = parseDuration(spec.duration ?? "5s");
    this.current = parseDuration(spec.initialInterval ?? "500ms");
    this.randomization = Number(spec.randomizationFactor ?? 0.5);
    this.multiplier = Number(spec.multiplier ?? 1.5);
    this.maxIntervalMs = parseDuration(spec.maxInterval ?? "60s");
    this.maxElapsedMs = parseDuration(spec.maxElapsedTime ?? "15m");
    this.maxRetries = Number(spec.maxRetries ?? -1);
    this.startedAt = now();
  }

  /** The wait before the next attempt, or undefined once the policy gives up. */
  next(): number | undefined {
    if (this.maxRetries >= 0 && this.retries >= this.maxRetries) return undefined;
    this.retries++;
    if (!this.exponential) return this.constantMs;
    const spread = this.randomization * this.current;
    const delay = Math.round(this.current - spread + this.random() * 2 * spread);
    this.current = Math.min(this.current * this.multiplier, this.maxIntervalMs);
    const elapsed = this.now() - this.startedAt;
    if (this.maxElapsedMs !== 0 && elapsed + delay > this.maxElapsedMs) return undefined;
    return delay;
  }
}
