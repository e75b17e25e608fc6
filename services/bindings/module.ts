import { IntegrationPushes } from "../../src/app/cases/integration-pushes.js";
import type { DisruptionPush } from "../../src/app/cases/intake.js";
import { DomainError } from "../../src/domain/domain-error.js";
import { ProblemError } from "../../src/http/errors.js";
import { compileRequestValidator } from "../../src/http/validation.js";
import type { InputBinding } from "../../src/runtime/bindings.js";
import { TOKENS } from "../../src/runtime/tokens.js";
import { disruptionPushBody } from "../cases/case-schemas.js";
import { type ModuleContext, registerSingletons, type ServiceModule, WORKFLOW_SERVICE } from "../module.js";

const validatePush = compileRequestValidator({
  params: { type: "object" },
  query: { type: "object" },
  body: disruptionPushBody,
});

/**
 * Bindings for integrators (README): an airline delivers disruption pushes over its own broker,
 * each message the body of POST /partner/v1/disruptions, acting as the partner registration main
 * was given (DISRUPTION_PUSH_CLIENT_ID). Consumed by the workers app, as the flight-state stream is.
 * A push that fails the route's schema or the use case's checks is dropped and logged: a retry
 * could not change the answer.
 */
export const bindingsModule: ServiceModule = {
  name: "bindings",
  register: (container) => registerSingletons(container, [IntegrationPushes]),
  start: async ({ container, config, logger }: ModuleContext) => {
    if (!config.services.includes(WORKFLOW_SERVICE)) return;
    if (!container.isRegistered(TOKENS.disruptionPushBinding, true) || !config.disruptionPushClientId) return;
    const clientId = config.disruptionPushClientId;
    const binding = container.resolve<InputBinding>(TOKENS.disruptionPushBinding);
    const pushes = container.resolve(IntegrationPushes);
    await pushes.integration(clientId);
    const log = logger.child({ disruptionPushBinding: binding.description, integration: clientId });
    await binding.start({
      handle: async (message) => {
        const outcome = await receivePush(pushes, clientId, message);
        if (outcome.kind === "refused") log.warn({ problem: outcome.problem }, "disruption push dropped");
        else log.info({ caseUrn: outcome.caseUrn, created: outcome.created }, "disruption push received");
      },
      onUnreadable: (raw, error) =>
        log.warn({ err: error, raw: raw.slice(0, 200) }, "disruption push dropped: not JSON"),
      onGivenUp: (message, error) =>
        log.error({ err: error, message }, "disruption push given up after a retry"),
    });
    log.info("consuming disruption pushes");
  },
  stop: async ({ container }: ModuleContext) => {
    if (container.isRegistered(TOKENS.disruptionPushBinding, true)) {
      await container.resolve<InputBinding>(TOKENS.disruptionPushBinding).close();
    }
  },
};

export type PushOutcome =
  | { kind: "received"; caseUrn: string; created: boolean }
  | { kind: "refused"; problem: unknown };

/**
 * One pushed message through the partner push's schema and use case. Refusals (bad input, another
 * airline, a registration without the scope) are answers, not failures: only the platform's own
 * errors reject, so that the binding redelivers the message.
 */
export async function receivePush(
  pushes: IntegrationPushes,
  clientId: string,
  message: unknown,
): Promise<PushOutcome> {
  try {
    const parts = { params: {}, query: {}, body: message };
    validatePush(parts);
    const result = await pushes.receive(clientId, parts.body as DisruptionPush);
    return { kind: "received", caseUrn: result.snapshot.case.urn, created: result.created };
  } catch (error) {
    if (isRefusal(error)) return { kind: "refused", problem: error };
    throw error;
  }
}

function isRefusal(error: unknown): boolean {
  return error instanceof DomainError || error instanceof ProblemError;
}
