import type { EventDataByType } from "../../domain/events/catalogue.js";
import { urn } from "../../domain/urn.js";
import type { Clock } from "../../runtime/clock.js";
import { type EventBus, publishEvent } from "../../runtime/event-bus.js";

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
    return this.publish("graph.step.started", { ...this.stepOf(), name, startedAt: this.now() });
  }

  /** `progress` from 0 to 1. */
  progress(progress: number, message?: string): Promise<void> {
    return this.publish("graph.step.progress", {
      ...this.stepOf(),
      progress,
      ...(message ? { message } : {}),
    });
  }

  completed(result: Record<string, unknown>): Promise<void> {
    return this.publish("graph.step.completed", { ...this.stepOf(), completedAt: this.now(), result });
  }

  private stepOf(): { caseUrn: string; stepUrn: string } {
    return { caseUrn: this.step.caseUrn, stepUrn: this.step.stepUrn };
  }

  private publish<T extends "graph.step.started" | "graph.step.progress" | "graph.step.completed">(
    type: T,
    data: EventDataByType[T],
  ): Promise<void> {
    const { tenant, caseUrn, correlationUrn } = this.step;
    return publishEvent(this.bus, {
      id: urn("event"),
      type,
      tenant,
      caseUrn,
      occurredAt: this.now(),
      correlationUrn,
      data,
    });
  }

  private now(): string {
    return new Date(this.clock.now()).toISOString();
  }
}
