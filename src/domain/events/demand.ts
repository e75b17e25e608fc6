import type { DemandType } from "../demand.js";

/** `demand.approved`: what allocation needs to start (spec 3.1 "allocation job enqueued"). */
export interface DemandApprovedData {
  demandUrn: string;
  caseUrn: string;
  type: DemandType;
  roomsRequested: number;
  policyUrn: string | null;
  policyVersion: number | null;
}

/** Every other move of a demand (spec 3.1). */
export interface DemandChangedData {
  demandUrn: string;
  caseUrn: string;
  roomsRequested: number;
  /** A PARTIAL demand: the review item explaining what was not booked. */
  reviewItemUrn?: string;
}

export interface DemandEventDataByType {
  "demand.requested": DemandChangedData;
  "demand.approved": DemandApprovedData;
  "demand.rejected": DemandChangedData;
  "demand.fulfilled": DemandChangedData;
  "demand.partial": DemandChangedData;
}
