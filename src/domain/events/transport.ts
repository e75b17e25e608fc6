import type { TransportSegment } from "../transport/transport-segment.js";

/**
 * Events of ground-transport segments (TransportSegmentActor, src/domain/transport/). Each carries
 * the segment as it now stands, with its case and group, so the operator screens and the group's
 * passenger stream (spec 4.4 `GET /v1/me/events`, "e.g. transport ETA") can pick it up.
 */
export const TRANSPORT_EVENT = {
  requested: "transport.segment-requested",
  booked: "transport.segment-booked",
  declined: "transport.segment-declined",
  /** Still PENDING: the ride provider could not be reached; asking again retries it. */
  providerFailed: "transport.segment-provider-failed",
  /** Retimed or given another vehicle by an operator. */
  amended: "transport.segment-amended",
  cancelled: "transport.segment-cancelled",
  completed: "transport.segment-completed",
  /** The provider reported where the vehicle is: its ETA, driver, vehicle. */
  etaUpdated: "transport.eta-updated",
  /** About 12 hours before the return leg's flight: the passengers are reminded by e-mail (spec 8.2). */
  returnLegDue: "transport.return-leg-due",
} as const;

export type TransportEventType = (typeof TRANSPORT_EVENT)[keyof typeof TRANSPORT_EVENT];

export interface TransportSegmentEventData {
  segmentUrn: string;
  caseUrn: string;
  groupId: string;
  segment: TransportSegment;
  /** Who moved it: a user URN, `urn:system:...`, or the provider's URN for its reports. */
  by: string;
  /** The operator's reason for a retime, a vehicle change or a cancellation. */
  reason?: string;
}

export type TransportEventDataByType = Record<TransportEventType, TransportSegmentEventData>;
