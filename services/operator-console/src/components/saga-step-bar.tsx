import type { SagaStep } from "../case-types.js";
import { formatTime, label } from "../format.js";

/**
 * A sub-case's saga as a bar of its steps (spec 6.2 graph:step:*): each segment coloured by its
 * state and saying it in words too.
 */
export function SagaStepBar({ groupId, steps }: { groupId: string; steps: readonly SagaStep[] }) {
  if (steps.length === 0) return <p class="muted">No step has started.</p>;
  return (
    <ol class="step-bar" aria-label={`Saga steps of group ${groupId}`}>
      {steps.map((step) => (
        <li key={step.name} class={`step step-${step.state.toLowerCase()}`}>
          <span class="step-name">{label(step.name)}</span>
          <span class="step-state">{label(step.state)}</span>
          {step.endedAt ? <span class="step-time">{formatTime(step.endedAt)}</span> : null}
          {step.error ? (
            <span class="step-error">
              {typeof step.error === "string" ? step.error : JSON.stringify(step.error)}
            </span>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
