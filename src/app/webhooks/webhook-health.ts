import { inject, injectable } from "tsyringe";
import { percentile } from "../../domain/percentile.js";
import type { Clock } from "../../runtime/clock.js";
import type { DocumentCollection, DocumentStore } from "../../runtime/document-store.js";
import { TOKENS } from "../../runtime/tokens.js";
import { type AttemptDoc, WEBHOOK_COLLECTIONS } from "./webhook-documents.js";
import { EVENT_REPLAY_WINDOW_MS } from "./webhook-event-log.js";

/** Attempts a health read shows, newest first. */
const RECENT_ATTEMPTS = 20;
/** Delivered attempts the p95 latency is taken over, newest first. */
const LATENCY_SAMPLE = 1_000;

export interface WebhookAttemptView {
  eventUrn: string;
  eventType: string;
  attempt: number;
  at: string;
  delivered: boolean;
  status: number | null;
  error: string | null;
  latencyMs: number;
}

export interface WebhookHealthFigures {
  /** Delivered attempts in the last 7 days. */
  deliveries: number;
  /** Failed attempts in the last 7 days. */
  failures: number;
  /** How long receivers took to answer delivered attempts, at p95; null without any. */
  p95LatencyMs: number | null;
}

/** How a registration's deliveries went, from its attempts of the last 7 days. */
@injectable()
export class WebhookHealth {
  private readonly attempts: DocumentCollection<AttemptDoc>;

  constructor(
    @inject(TOKENS.documents) documents: DocumentStore,
    @inject(TOKENS.clock) private readonly clock: Clock,
  ) {
    this.attempts = documents.collection<AttemptDoc>(WEBHOOK_COLLECTIONS.attempts);
  }

  async figures(clientId: string): Promise<WebhookHealthFigures> {
    const since = { $gte: this.cutoff() };
    const [deliveries, failures, delivered] = await Promise.all([
      this.attempts.count({ clientId, delivered: true, at: since }),
      this.attempts.count({ clientId, delivered: false, at: since }),
      this.attempts.findAll(
        { clientId, delivered: true, at: since },
        { sort: { at: -1 }, limit: LATENCY_SAMPLE },
      ),
    ]);
    const latencies = delivered.map((attempt) => attempt.latencyMs).sort((a, b) => a - b);
    return { deliveries, failures, p95LatencyMs: latencies.length > 0 ? percentile(latencies, 95) : null };
  }

  async recent(clientId: string): Promise<WebhookAttemptView[]> {
    const recent = await this.attempts.findAll(
      { clientId, at: { $gte: this.cutoff() } },
      { sort: { at: -1 }, limit: RECENT_ATTEMPTS },
    );
    return recent.map(({ eventUrn, eventType, attempt, at, delivered, status, error, latencyMs }) => ({
      eventUrn,
      eventType,
      attempt,
      at: new Date(at).toISOString(),
      delivered,
      status,
      error,
      latencyMs,
    }));
  }

  /** Forgets attempts older than 7 days. */
  async prune(): Promise<number> {
    return this.attempts.deleteMany({ at: { $lt: this.cutoff() } });
  }

  private cutoff(): number {
    return this.clock.now() - EVENT_REPLAY_WINDOW_MS;
  }
}
