import type { WorkflowState } from "../../workflow-engine.js";
import type { StoredInstance } from "./stored-instance.js";

/** The port's view of a stored instance: payloads decoded, custom status left as the string the workflow set. */
export function toWorkflowState(instance: StoredInstance): WorkflowState {
  return {
    instanceId: instance.instanceId,
    name: instance.name,
    runtimeStatus: instance.status,
    createdAt: new Date(instance.createdAt).toISOString(),
    lastUpdatedAt: new Date(instance.lastUpdatedAt).toISOString(),
    ...(instance.input === undefined ? {} : { input: JSON.parse(instance.input) }),
    ...(instance.output === undefined ? {} : { output: JSON.parse(instance.output) }),
    ...(instance.customStatus === undefined ? {} : { customStatus: instance.customStatus }),
    ...(instance.failure
      ? { failure: { message: instance.failure.message, errorType: instance.failure.errorType } }
      : {}),
  };
}
