import type { CasePriority, CaseStatus, Flight, NextFlight, PassengerGroup } from "../case.js";
import type { CaseEffect } from "../case-lifecycle.js";
import type { StayPlan } from "../reaccommodation.js";

/** What every case event carries: the case's status and version once the change committed. */
export interface CaseEventData {
  caseUrn: string;
  status: CaseStatus;
  version: number;
}

export interface CaseOpenedData extends CaseEventData {
  externalEventId: string;
  flight: Flight;
  nextFlight: NextFlight | null;
  groupCount: number;
  passengerCount: number;
  passengerGroups: PassengerGroup[];
  source: "operator" | "partner";
}

/** A new group list: regrouped, split, merged, or passengers uploaded or amended by a partner. */
export interface CaseAmendedData extends CaseEventData {
  /** The audit action of the change, e.g. `case.group-split`. */
  change: string;
  reason: string;
  passengerGroups: PassengerGroup[];
  nextFlight: NextFlight | null;
  groupCount: number;
  passengerCount: number;
  /** A split: the new groups' ids. */
  parts?: string[];
  /** A merge: the merged group's id. */
  merged?: string;
  /** An upload or amendment: passenger ids added and updated, groups created. */
  added?: string[];
  updated?: string[];
  groupsCreated?: string[];
  nextFlightBefore?: NextFlight | null;
}

/** A move of the case's status (spec 3.3). */
export interface CaseStatusChangedData extends CaseEventData {
  from: CaseStatus;
  to: CaseStatus;
  reason: string | undefined;
  by: string | undefined;
  effects: CaseEffect[];
}

export interface CaseReservationRecordedData extends CaseEventData {
  reservationUrn: string;
  groupId: string;
  reservationStatus: string;
}

export interface CaseReaccommodatedData extends CaseEventData {
  nextFlight: NextFlight;
  plan: StayPlan;
  localResidentGroups: string[];
}

/** A partner's request raised the case's priority one level (spec 4.3 priority-request). */
export interface CasePriorityRaisedData extends CaseEventData {
  from: CasePriority;
  to: CasePriority;
  reason: string;
  /** The partner URN that asked. */
  by: string;
}

/** The case actor's events and their data. */
export interface CaseEventDataByType {
  "case.opened": CaseOpenedData;
  "case.amended": CaseAmendedData;
  "case.closed": CaseStatusChangedData;
  "case.reopened": CaseStatusChangedData;
  "case.manual-review": CaseStatusChangedData;
  "case.returned-to-flow": CaseStatusChangedData;
  "case.reservation-recorded": CaseReservationRecordedData;
  "case.reaccommodated": CaseReaccommodatedData;
  "case.priority-raised": CasePriorityRaisedData;
}

export type CaseEventType = keyof CaseEventDataByType;

/** What a case event adds to the fields every case event carries. */
export type CaseEventDetails<T extends CaseEventType> = Omit<CaseEventDataByType[T], keyof CaseEventData>;

export type CaseStatusEventType =
  | "case.closed"
  | "case.reopened"
  | "case.manual-review"
  | "case.returned-to-flow";
