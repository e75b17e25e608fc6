import { createHash } from "node:crypto";
import { DomainError } from "../../domain/domain-error.js";
import type { GroupRequestedData } from "../../domain/events/booking.js";
import type { WorkflowEngine } from "../../runtime/workflow-engine.js";
import {
  BOOK_GROUPS_WORKFLOW,
  type BookGroupsInput,
  type BookGroupsSummary,
  type GroupStatus,
  restingOutcome,
} from "../../workflows/book-groups/model.js";
import type { BookingSettings } from "./booking-settings.js";
import type { Acting, BookingRequest } from "./booking-steps.js";
import type { GroupOverriddenData } from "../../domain/events/allocation.js";

export interface WaveBookingSummary extends BookGroupsSummary {
  waveUrn: string;
}

/**
 * Books what allocation decided (spec 4.1 book-rooms, 3.1 FULFILLED / PARTIAL): a wave's groups,
 * a group overridden to another hotel, or a group an operator re-books from the review queue. Each
 * runs the book-groups workflow (src/workflows/book-groups) and answers once the run rests: every
 * group is decided, or the run waits to book again the groups left behind an open circuit. A run
 * started for an event is named after it, so a redelivered event finds its run instead of starting
 * another.
 */
export class BookingFlow {
  constructor(
    private readonly workflows: WorkflowEngine,
    private readonly settings: BookingSettings,
  ) {}

  /** Books every group of the wave that is not booked or failed yet; a second run books nothing twice. */
  async bookWave(waveUrn: string, acting: Acting, eventId?: string): Promise<WaveBookingSummary> {
    const summary = await this.run({ kind: "wave", waveUrn, acting }, eventId);
    return { waveUrn, ...summary };
  }

  /** Spec 4.2 wave override: only the overridden group is booked again. */
  async bookOverride(data: GroupOverriddenData, eventId: string, acting: Acting): Promise<GroupStatus> {
    return onlyGroup(await this.run({ kind: "override", data, eventId, acting }, eventId));
  }

  /** The review queue's `rebook` and `override` actions: answered by `booking.group-booked` or `booking.group-failed`. */
  async bookRequested(
    data: GroupRequestedData,
    eventId: string,
    correlationUrn: string,
  ): Promise<GroupStatus> {
    return onlyGroup(await this.run({ kind: "review", data, eventId, correlationUrn }, eventId));
  }

  /**
   * Waits at most a claim's lease: a first pass that takes longer has outlived its claims anyway.
   * A run that failed (its activities ran out of attempts) is reported as an error to retry.
   */
  private async run(request: BookingRequest, eventId: string | undefined): Promise<BookGroupsSummary> {
    const input: BookGroupsInput<BookingRequest> = {
      request,
      retryInMs: this.settings.retryInMs,
      concurrentGroupsPerVendor: this.settings.concurrentGroupsPerVendor,
    };
    const instanceId = await this.workflows.schedule(
      BOOK_GROUPS_WORKFLOW,
      input,
      eventId ? { instanceId: runIdFor(eventId) } : {},
    );
    const state = await this.workflows.waitUntil(
      instanceId,
      (s) => restingOutcome(s) !== undefined,
      this.settings.claimLeaseMs,
    );
    const outcome = restingOutcome(state);
    if (!outcome) {
      throw new Error(
        `Booking run ${instanceId} ended ${state.runtimeStatus}: ${state.failure?.message ?? ""}`,
      );
    }
    if ("refusal" in outcome) {
      const { kind, code, message, details } = outcome.refusal;
      throw new DomainError(kind, code, message, details);
    }
    return outcome;
  }
}

/** A workflow instance id from an event id: a fixed-length name of letters, digits and dashes. */
function runIdFor(eventId: string): string {
  return `book-groups-${createHash("sha256").update(eventId).digest("hex").slice(0, 32)}`;
}

function onlyGroup(summary: BookGroupsSummary): GroupStatus {
  const [status] = summary.groups;
  if (!status) throw new Error(`A one-group booking run of ${summary.caseUrn} answered for no group`);
  return status;
}
