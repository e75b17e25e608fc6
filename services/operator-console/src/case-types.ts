/**
 * What the operator API's read routes answer, as far as the console reads it (the OpenAPI document
 * at /openapi/operator.json is the full contract).
 */
import type { Money } from "./format.js";

/** A cursor page (spec 2.9). */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
  hasMore: boolean;
}

/** An item of `GET /v1/cases`. */
export interface CaseSummary {
  urn: string;
  status: string;
  priority: string;
  airport: string;
  flightNumber: string;
  externalEventId: string | null;
  openedAt: string;
  updatedAt: string;
  passengerCount: number;
  groupCount: number;
  drill?: boolean;
}

export interface Passenger {
  urn: string;
  id: string;
  firstName?: string;
  lastName: string;
  cabinClass?: string;
  loyaltyTier?: string;
}

export interface PassengerGroup {
  id: string;
  pnr: string | null;
  subCaseUrn: string;
  operationalStatus: string;
  passengers: Passenger[];
}

export interface Allocation {
  groupId: string;
  hotelUrn: string;
  vendor: string;
  providerOfferId: string;
  rooms: number;
  nights: number;
  checkIn: string;
  checkOut: string;
  nightlyRate: Money;
  cost: Money;
  isDirectContract: boolean;
}

/** `GET /v1/cases/{urn}`. */
export interface CaseDetail {
  urn: string;
  status: string;
  priority: string;
  version: number;
  externalEventId: string | null;
  flight: { number: string; origin: string; destination: string; scheduledDeparture: string; status: string };
  nextFlight: { number: string; scheduledDeparture: string } | null;
  openedAt: string;
  updatedAt: string;
  drill?: boolean;
  passengerGroups: PassengerGroup[];
  wave: { urn: string; allocations: Allocation[]; totalCost: Money | null } | null;
  reservations: Array<{
    reservationUrn: string;
    groupId: string;
    status: string;
    checkIn: string;
    checkOut: string;
  }>;
  manualReviewItems?: Array<Record<string, unknown> & { urn?: string; category?: string; state?: string }>;
}

/** An item of `GET /v1/cases/{urn}/manifest`: a sub-case with its lock. */
export interface ManifestEntry {
  subCaseUrn: string;
  groupId: string;
  pnr: string | null;
  status: string;
  lockedBy: string | null;
  passengerCount: number;
  passengers: Passenger[];
}

export interface SagaStep {
  name: string;
  state: string;
  startedAt: string | null;
  endedAt: string | null;
  error: unknown;
}

/** `GET /v1/orchestration/cases/{urn}/progress`. */
export interface CaseProgress {
  caseUrn: string;
  subCases: Array<{
    subCaseUrn: string;
    groupId: string;
    status: string;
    vendorErrorCode: string | null;
    saga: {
      runtimeStatus: string;
      phase: string | null;
      startedAt: string | null;
      endedAt: string | null;
      lastError: string | null;
      steps: SagaStep[];
    } | null;
  }>;
}

/** An item of `GET /v1/booking/cases/{urn}/reservations`. */
export interface Reservation {
  urn: string;
  groupId: string;
  status: string;
  vendor: string;
  confirmationNumber: string | null;
  hotel: { hotelUrn: string; name: string; address: string };
  checkIn: string;
  checkOut: string;
  rooms: number;
  cost: Money;
  allocatedCost: Money | null;
  voucher: { urn: string; verificationCode: string; issuedAt: string; version: number } | null;
}

/** An item of `GET /v1/notifications/case/{urn}`. */
export interface NotificationEntry {
  notificationUrn: string;
  groupId: string | null;
  template: string;
  status: string;
  channel: string | null;
  recipient: string | null;
  createdAt: string;
  attempts: Array<{ channel: string; status: string; reason: string | null; at: string }>;
}

/** An item of `GET /v1/audit/case/{urn}`. */
export interface AuditEntry {
  urn: string;
  actorUrn: string;
  action: string;
  entityUrn: string;
  at: string;
  reason?: string;
  correlationUrn?: string;
}

/** A candidate offer's verdict in a wave (spec 2.6 rankingInputs): why a hotel won or lost. */
export interface RankingInput {
  /** The class of groups (`RankingClass`) the verdict is about; null for a verdict on the offer itself. */
  classId: string | null;
  /** On a selected row, the class's groups placed in the hotel; null on every other row. */
  groupIds: string[] | null;
  hotelUrn: string;
  provider: string;
  providerOfferId: string;
  raw: {
    cost: Money | null;
    nightlyRate: Money | null;
    distanceKm: number | null;
    consolidation: number | null;
  };
  /** Each criterion scaled to 0..1 (lower is better), for offers that were scored. */
  normalized: Record<string, number> | null;
  weightedScore: number | null;
  outcome: "selected" | "discarded";
  reasons: string[];
}

/** Groups of a wave needing the same rooms for the same nights: the class verdicts are about them. */
export interface RankingClass {
  classId: string;
  rooms: number;
  nights: number;
  groupIds: string[];
}

export interface WaveHotel {
  hotelUrn: string;
  name: string;
  address: string;
  lat: number;
  lon: number;
  stars: number | null;
  distanceKm: number;
}

/** `GET /v1/allocation/wave/{urn}`: the wave with its candidates and their verdicts. */
export interface Wave {
  urn: string;
  caseUrn: string;
  airport: string;
  currency: string;
  groups: Array<{ groupId: string; rooms: number; tier: string; nights: number }>;
  hotels: WaveHotel[];
  rankingClasses: RankingClass[];
  rankingInputs: RankingInput[];
  allocations: Allocation[];
  unallocated: Array<{ groupId: string; reason: string }>;
  totalCost: Money;
}

/** An item of `GET /v1/airports/search`. */
export interface Airport {
  code: string;
  name: string;
  city: string;
  lat: number;
  lon: number;
}
