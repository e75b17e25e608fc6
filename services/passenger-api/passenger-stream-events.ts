import type { EventOf, EventType } from "../../src/domain/events/catalogue.js";
import { SUB_CASE_EVENT } from "../../src/domain/events/sub-case.js";
import { SUB_CASE_MOVES, subCaseUrnFor } from "../../src/domain/sub-case.js";
import { TRANSPORT_EVENT, type TransportSegmentEventData } from "../../src/domain/events/transport.js";
import { passengerTransportView } from "../../src/domain/transport/segment-views.js";

/**
 * What a passenger's event stream (`GET /v1/me/events`) carries, from the tenant's domain events:
 *
 *   subcase.<transition>, subcase.opened,      the group's sub-case: subCaseUrn, status, version,
 *   subcase.retired, subcase.case-closed, ...   updatedAt, and the offer and answer when it has them
 *   graph.step.started|progress|completed      the saga's steps for the group, data as emitted
 *   notification.dispatched                    a message sent to the group: channel, template, URN
 *   transport.eta-updated, transport.segment-  a leg of the group's ground transport as the passenger sees
 *   booked|declined|cancelled|completed         it (GET /v1/me/transport): status, pickup, vehicle, ETA
 *
 * each only to the passengers of the group it is about (its `subCaseUrn`, or its case and
 * `groupId`). The sub-case's lock events are the operators' bookkeeping (they name the operator)
 * and are not carried; neither is the recipient's address of a notification.
 */
export const PASSENGER_STREAM_TYPES = [
  SUB_CASE_EVENT.opened,
  ...SUB_CASE_MOVES,
  SUB_CASE_EVENT.retired,
  SUB_CASE_EVENT.caseClosed,
  SUB_CASE_EVENT.caseReopened,
  "graph.step.started",
  "graph.step.progress",
  "graph.step.completed",
  "notification.dispatched",
  TRANSPORT_EVENT.etaUpdated,
  TRANSPORT_EVENT.booked,
  TRANSPORT_EVENT.declined,
  TRANSPORT_EVENT.cancelled,
  TRANSPORT_EVENT.completed,
] as const satisfies readonly EventType[];

export type PassengerStreamType = (typeof PASSENGER_STREAM_TYPES)[number];

/** One message of a passenger's stream: the SSE `id`, `event` and (JSON) `data` lines. */
export interface PassengerStreamMessage {
  /** The domain event's URN: the `Last-Event-ID` a client resumes from. */
  id: string;
  /** ISO 8601: when the domain event happened. */
  at: string;
  event: PassengerStreamType;
  data: Record<string, unknown>;
}

const SUB_CASE_FIELDS = ["subCaseUrn", "caseUrn", "groupId", "status", "version", "updatedAt"] as const;

/** The group's stream an event belongs to (its sub-case URN), or undefined when it is no group's. */
export function passengerStreamOf(event: EventOf<PassengerStreamType>): string | undefined {
  const data = (event.data ?? {}) as { subCaseUrn?: unknown; groupId?: unknown; caseUrn?: unknown };
  if (typeof data.subCaseUrn === "string") return data.subCaseUrn;
  const caseUrn = event.caseUrn ?? (typeof data.caseUrn === "string" ? data.caseUrn : undefined);
  return caseUrn && typeof data.groupId === "string" ? subCaseUrnFor(caseUrn, data.groupId) : undefined;
}

/** The event as the group's passengers receive it. */
export function passengerStreamMessage(event: EventOf<PassengerStreamType>): PassengerStreamMessage {
  // Read, never changed: every message's data is a new object (streamMessage).
  const data = (event.data ?? {}) as unknown as Record<string, unknown>;
  if (event.type.startsWith("subcase.")) {
    const payload: Record<string, unknown> = {};
    for (const field of SUB_CASE_FIELDS) if (field in data) payload[field] = data[field];
    for (const field of ["offer", "answer"]) if (data[field] !== undefined) payload[field] = data[field];
    return streamMessage(event, payload);
  }
  if (event.type.startsWith("transport.")) {
    // The leg as GET /v1/me/transport shows it: not who asked for it, the fare or the provider's ids.
    const { segment } = data as unknown as TransportSegmentEventData;
    const [leg] = passengerTransportView([segment]).legs;
    return streamMessage(
      event,
      leg ?? { segmentUrn: segment.urn, direction: segment.direction, status: segment.status },
    );
  }
  if (event.type === "notification.dispatched") {
    const { recipient: _address, ...notification } = data;
    return streamMessage(event, notification);
  }
  return streamMessage(event, data);
}

/** The SSE message of the event with `payload` (copied) and when the event happened as its data. */
function streamMessage(
  event: EventOf<PassengerStreamType>,
  payload: object,
): PassengerStreamMessage {
  return {
    id: event.id,
    at: event.occurredAt,
    event: event.type,
    data: { ...payload, at: event.occurredAt },
  };
}
