import type { WaveAllocation } from "../allocation/wave-allocation.js";

/** `allocation.wave-completed`: booking books the allocations when `autoBook`. */
export interface WaveCompletedData {
  waveUrn: string;
  caseUrn: string;
  demandUrn: string | null;
  autoBook: boolean;
  allocations: WaveAllocation[];
}

/** `allocation.group-overridden`: one group moved to another hotel by an operator; booking re-books it. */
export interface GroupOverriddenData {
  waveUrn: string;
  caseUrn: string;
  groupId: string;
  allocation: WaveAllocation;
}

export const BATCH_DUE_EVENT = "allocation.batch-due";

/** `allocation.batch-due`: the BATCH schedule of one airline at one airport came round (spec 2.4). */
export interface BatchScope {
  tenant: string;
  airport: string;
}

/** `allocation.rerun-requested`: manual review relaxed the case's policy (its `relax` action). */
export interface RerunRequestedData {
  caseUrn: string;
  reason: string;
  reviewItemUrn: string;
  requestedBy: string;
  /**
   * The constraint fields this relaxation changed and their new values (null removes one); the
   * wave reads every relaxation of the case, merged, from the policy overrides.
   */
  fields: Record<string, unknown>;
}

/** What every saga step event carries (spec 6.2 graph:step:*). */
export interface StepEventData {
  caseUrn: string;
  stepUrn: string;
  /** A sub-case saga's step: the sub-case and its passenger group. */
  subCaseUrn?: string;
  groupId?: string;
}

export interface StepStartedData extends StepEventData {
  name: string;
  startedAt: string;
}

export interface StepProgressData extends StepEventData {
  /** From 0 to 1. */
  progress: number;
  message?: string;
}

export interface StepCompletedData extends StepEventData {
  completedAt: string;
  result: Record<string, unknown>;
}

export interface AllocationEventDataByType {
  "allocation.wave-completed": WaveCompletedData;
  "allocation.group-overridden": GroupOverriddenData;
  "allocation.batch-due": BatchScope;
  "allocation.rerun-requested": RerunRequestedData;
  "graph.step.started": StepStartedData;
  "graph.step.progress": StepProgressData;
  "graph.step.completed": StepCompletedData;
}
