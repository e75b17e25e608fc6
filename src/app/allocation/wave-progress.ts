import { type DomainEvent, topicFor } from "../../domain/domain-event.js";
import { urn } from "../../domain/urn.js";
import type { Clock } from "../../runtime/clock.js";
import type { EventBus } from "../../runtime/event-bus.js";

/**
 * A wave's progress as `graph.step.started|progress|completed` events, which the operator channel
 * passes on as graph:step:* (spec 6.2). Progress is a heartbeat for the people watching: it goes
 * straight to the bus rather than through an outbox, and a lost heartbeat costs nothing.
 */
export class WaveProgress {
  constructor(
    private readonly bus: EventBus,
    private readonly clock: Clock,
    private readonly step: { tenant: string; caseUrn: string; stepUrn: string; correlationUrn: string },
  ) {}

  started(name: string): Promise<void> {
    return this.publish("graph.step.started", { name, startedAt: this.now() });
  }

  /** `progress` from 0 to 1. */
  progress(progress: number, message?: string): Promise<void> {
    return this.publish("graph.step.progress", { progress, ...(message ? { message } : {}) });
  }

  completed(result: Record<string, unknown>): Promise<void> {
    return this.publish("graph.step.completed", { completedAt: this.now(), result });
  }

  private async publish(type: string, data: Record<string, unknown>): Promise<void> {
    const { tenant, caseUrn, stepUrn, correlationUrn } = this.step;
    const event: DomainEvent = {
      id: urn("event"),
      type,
      tenant,
      caseUrn,
      occurredAt: this.now(),
      correlationUrn,
      data: { caseUrn, stepUrn, ...data },
    };
    await this.bus.publish(topicFor(event), event);
  }

  private now(): string {
    return new Date(this.clock.now()).toISOString();
  }
}
