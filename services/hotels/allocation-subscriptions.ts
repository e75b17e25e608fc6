import { BATCH_DUE_EVENT, type BatchScope } from "../../actors/AllocationScheduleActor.js";
import type { DemandApprovedData } from "../../actors/DemandActor.js";
import type { RerunRequestedData } from "../../src/app/allocation/allocation-triggers.js";
import { DomainError } from "../../src/domain/domain-error.js";
import { type DomainEvent, topicFor } from "../../src/domain/domain-event.js";
import type { DeliveryResult, Subscription } from "../../src/runtime/event-bus.js";
import type { ModuleContext } from "../module.js";
import { allocationUseCases } from "./allocation-use-cases.js";
import { automationSettingsOf } from "./automation-settings.js";

/**
 * What starts allocation by itself, per tenant topic: a new case asks for its rooms (INITIAL
 * demand), approved demand runs a wave (ON_DEMAND) or arms the airport's schedule (BATCH), the
 * schedule's reminder runs the waiting waves, and a relaxed policy (manual review) reruns the
 * case's wave. Each handler is idempotent whatever the delivery: a case's INITIAL demand is created
 * once, an automatic wave runs once per demand and a rerun once per request (WaveActor).
 */
export function allocationSubscriptions(
  context: () => ModuleContext,
  tenants: readonly string[],
): Subscription[] {
  return tenants.flatMap((tenant) => {
    const topic = topicFor({ tenant });
    return [
      {
        name: `hotels.intake-demand.${tenant}`,
        topic,
        types: ["case.opened"],
        handler: (event) =>
          handled(context, event, async () => {
            if (!event.caseUrn || !automationSettingsOf(context().config).demandOnIntake) return;
            await allocationUseCases(context().container).intake.onCaseOpened(
              event.caseUrn,
              event.correlationUrn,
            );
          }),
      },
      {
        name: `hotels.allocate-on-approval.${tenant}`,
        topic,
        types: ["demand.approved"],
        handler: (event) =>
          handled(context, event, async () => {
            await allocationUseCases(context().container).triggers.onDemandApproved(
              event.data as DemandApprovedData,
              event.correlationUrn,
            );
          }),
      },
      {
        name: `hotels.batch-waves.${tenant}`,
        topic,
        types: [BATCH_DUE_EVENT],
        handler: (event) =>
          handled(context, event, async () => {
            await allocationUseCases(context().container).triggers.onBatchDue(
              event.data as BatchScope,
              event.correlationUrn,
            );
          }),
      },
      {
        name: `hotels.rerun-on-relaxation.${tenant}`,
        topic,
        types: ["allocation.rerun-requested"],
        handler: (event) =>
          handled(context, event, async () => {
            await allocationUseCases(context().container).triggers.onRerunRequested(
              event.data as RerunRequestedData,
              event.id,
              event.correlationUrn,
            );
          }),
      },
    ];
  });
}

/**
 * A wave still running for the case, or a failure of the platform, is tried again later; a
 * refusal the domain explains (a closed case, nothing left to allocate, demand already there) will
 * not change by retrying, so it is logged and the event is done.
 */
async function handled(
  context: () => ModuleContext,
  event: DomainEvent,
  work: () => Promise<void>,
): Promise<DeliveryResult> {
  const { logger } = context();
  try {
    await work();
    return "SUCCESS";
  } catch (error) {
    const domain = error instanceof DomainError || DomainError.isShape(error);
    if (domain && (error as DomainError).code !== "wave-in-progress") {
      logger.info(
        { err: error, eventId: event.id, type: event.type, caseUrn: event.caseUrn },
        "allocation refused",
      );
      return "SUCCESS";
    }
    logger.warn(
      { err: error, eventId: event.id, type: event.type, caseUrn: event.caseUrn },
      "allocation failed; retrying",
    );
    return "RETRY";
  }
}
