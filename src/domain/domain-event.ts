/**
 * A domain event as it travels between actors, workflows and subscribers. `id` is a URN that
 * consumers use to deduplicate (delivery is at least once); the same URN becomes the webhook's
 * X-Svc-Event-Urn.
 */
export interface DomainEvent<D = unknown> {
  id: string;
  type: string;
  /** Airline URN. */
  tenant: string;
  /** ISO 8601 UTC. */
  occurredAt: string;
  correlationUrn: string;
  caseUrn?: string;
  data: D;
}

/** What actor code hands to its outbox: the runtime stamps `id` and `occurredAt` at commit. */
export type NewDomainEvent<D = unknown> = Omit<DomainEvent<D>, "id" | "occurredAt">;

/**
 * Every event travels on its tenant's topic (`events.<airline>`, spec 5.4: topics are partitioned
 * per tenant), so one tenant's events keep their order across areas.
 */
export const TENANT_EVENTS_TOPIC = "events";

/** The tenant's topic of a topic family (the event catalogue gives each event type its family). */
export function topicFor(event: Pick<DomainEvent, "tenant">, family: string = TENANT_EVENTS_TOPIC): string {
  return `${family}.${event.tenant.replaceAll(":", ".")}`;
}
