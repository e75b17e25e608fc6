import type { CasePriority, CaseStatus, Flight, NextFlight } from "../../domain/case.js";
import type { Doc } from "../../runtime/document-store.js";
import type { ReviewItem } from "../../domain/review-item.js";
import type { RevisionedDoc } from "../revisioned-index.js";

/**
 * The queryable documents the case lifecycle keeps beside its actors, and the collections other
 * areas keep that case reads look into. Actor state is the truth; these are projections of it.
 */
export const COLLECTIONS = {
  /** The case index: one entry per case, for lists, filters and the dashboard. */
  cases: "cases",
  /** Manual-review items (spec 2.5); the review queue moves their state. */
  reviewItems: "review-items",
  /** One intake record per case: the partner disruption feed. */
  disruptions: "disruptions",
  /** Kept by the sub-case area: `{_id: subCaseUrn, tenant, caseUrn, groupId, status, lockedBy}`. */
  subCases: "sub-cases",
  /** Kept by the demand area: one document per demand, with its case's tenant and airport. */
  demands: "demands",
} as const;

export interface CaseIndexEntry extends RevisionedDoc {
  /** The case URN. */
  _id: string;
  urn: string;
  tenant: string;
  status: CaseStatus;
  /** NORMAL unless a partner's request raised it (spec 4.3 priority-request). */
  priority: CasePriority;
  /** The disrupted flight's origin: where the passengers wait. */
  airport: string;
  flightNumber: string;
  externalEventId: string;
  openedAt: string;
  updatedAt: string;
  passengerCount: number;
  groupCount: number;
  /** Set for a drill case (src/domain/case.ts `drill`): reads show it, metrics leave it out. */
  drill?: true;
  /** For GET /partner/v1/passengers/{urn}/cases. */
  passengerIds: string[];
  version: number;
  /** The case version this entry reflects; older snapshots never overwrite newer ones. */
  revision: number;
}

/** A manual-review item with the fields of spec 2.5, the ones the case area reads. */
export interface ReviewItemDocument
  extends Doc,
    Pick<
      ReviewItem,
      | "urn"
      | "caseUrn"
      | "tenant"
      | "airport"
      | "category"
      | "priority"
      | "attemptedHotels"
      | "affectedGroups"
      | "recommendations"
      | "state"
      | "assignedTo"
      | "reason"
      | "createdAt"
    > {
  _id: string;
}

/** A disruption as it reached the service, for GET /partner/v1/disruptions. */
export interface DisruptionRecord extends Doc {
  /** The case URN: one intake per case. */
  _id: string;
  urn: string;
  tenant: string;
  caseUrn: string;
  externalEventId: string;
  source: "operator" | "partner";
  receivedBy: string;
  receivedAt: string;
  flight: Flight;
  nextFlight: NextFlight | null;
  disruption: { type: string; reason: string; decidedAt: string } | null;
  passengerCount: number;
  groupCount: number;
}

/** What case reads need of a sub-case (the sub-case area owns the documents). */
export interface SubCaseEntry extends Doc {
  tenant: string;
  caseUrn: string;
  groupId: string;
  status: string;
  lockedBy?: string | null;
}
