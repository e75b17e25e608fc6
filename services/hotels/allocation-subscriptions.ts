import { DomainError } from "../../src/domain/domain-error.js";
import { type EventSubscription, eventSubscription } from "../../src/runtime/subscription-policy.js";
import type { ModuleContext } from "../module.js";
import { allocationUseCases } from "./allocation-use-cases.js";
import { automationSettingsOf } from "./automation-settings.js";

/**
 * What starts allocation by itself, per tenant topic: a new case asks for its rooms (INITIAL
 * demand), approved demand runs a wave (ON_DEMAND) or arms the airport's schedule (BATCH), the
 * schedule's reminder runs the waiting waves, and a relaxed policy (manual review) reruns the
 * case's wave. Each handler is idempotent whatever the delivery: a case's INITIAL demand is created
 * once, an automatic wave runs once per demand and a rerun once per request (WaveActor).
 *
 * A wave still running for the case, or a failure of the platform, is retried with backoff; a
 * refusal the domain explains (a closed case, nothing left to allocate) will not change by
 * retrying, so the event is dead-lettered where an operator sees it.
 */
export function allocationSubscriptions(
  context: () => ModuleContext,
  tenants: readonly string[],
): EventSubscription[] {
  const common = {
    onFailure: "retry-with-backoff",
    refuses: isRefusal,
    log: () => context().logger,
  } as const;
  const allocation = () => allocationUseCases(context().container);
  return tenants.flatMap((tenant) => [
    eventSubscription({
      ...common,
      name: `hotels.intake-demand.${tenant}`,
      tenant,
      types: ["case.opened"],
      handle: async (event) => {
        if (!event.caseUrn || !automationSettingsOf(context().config).demandOnIntake) return;
        await allocation().intake.onCaseOpened(event.caseUrn, event.correlationUrn);
      },
    }),
    eventSubscription({
      ...common,
      name: `hotels.allocate-on-approval.${tenant}`,
      tenant,
      types: ["demand.approved"],
      handle: async (event) => {
        await allocation().triggers.onDemandApproved(event.data, event.correlationUrn);
      },
    }),
    eventSubscription({
      ...common,
      name: `hotels.batch-waves.${tenant}`,
      tenant,
      types: ["allocation.batch-due"],
      handle: async (event) => {
        await allocation().triggers.onBatchDue(event.data, event.correlationUrn);
      },
    }),
    eventSubscription({
      ...common,
      name: `hotels.rerun-on-relaxation.${tenant}`,
      tenant,
      types: ["allocation.rerun-requested"],
      handle: async (event) => {
        await allocation().triggers.onRerunRequested(event.data, event.id, event.correlationUrn);
      },
    }),
  ]);
}

function isRefusal(error: unknown): boolean {
  const domain = error instanceof DomainError || DomainError.isShape(error);
  return domain && (error as DomainError).code !== "wave-in-progress";
}
