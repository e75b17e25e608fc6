import type { ComponentChildren } from "preact";
import { useId } from "preact/hooks";
import type { ActionState } from "./use-action.js";
import { ProblemMessage } from "../components/problem-message.js";

/**
 * Form parts every action panel uses: each input has its own label (WCAG 2.1 1.3.1, 4.1.2), each
 * form reports its refusal and its result where a screen reader hears them.
 */

interface FieldProps {
  label: string;
  value: string;
  onValue: (value: string) => void;
  type?: "text" | "number" | "datetime-local";
  required?: boolean;
  placeholder?: string;
}

export function TextField({ label, value, onValue, type = "text", required, placeholder }: FieldProps) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        id={id}
        // Preact types each input type apart; the union of ours is one input.
        type={type as "text"}
        value={value}
        required={required}
        placeholder={placeholder}
        onInput={(event) => onValue((event.currentTarget as HTMLInputElement).value)}
      />
    </div>
  );
}

export function TextArea({ label, value, onValue, required, rows = 4 }: FieldProps & { rows?: number }) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <textarea
        id={id}
        rows={rows}
        value={value}
        required={required}
        onInput={(event) => onValue((event.currentTarget as HTMLTextAreaElement).value)}
      />
    </div>
  );
}

export function SelectField({
  label,
  value,
  onValue,
  options,
}: {
  label: string;
  value: string;
  onValue: (value: string) => void;
  /** Values, or [value, shown] pairs; "" is the "any" choice of a filter. */
  options: readonly (string | readonly [string, string])[];
}) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select
        id={id}
        value={value}
        onChange={(event) => onValue((event.currentTarget as HTMLSelectElement).value)}
      >
        {options.map((option) => {
          const [optionValue, shown] = typeof option === "string" ? [option, option] : option;
          return (
            <option key={optionValue} value={optionValue}>
              {shown}
            </option>
          );
        })}
      </select>
    </div>
  );
}

export function CheckboxField({
  label,
  checked,
  onChecked,
}: {
  label: string;
  checked: boolean;
  onChecked: (checked: boolean) => void;
}) {
  const id = useId();
  return (
    <div class="field field-checkbox">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        onChange={(event) => onChecked((event.currentTarget as HTMLInputElement).checked)}
      />
      <label for={id}>{label}</label>
    </div>
  );
}

/**
 * A form for one action: its fields, one submit button named by the action, the API's refusal and
 * the outcome. The button is disabled while an action of the panel runs.
 */
export function ActionForm({
  legend,
  action,
  state,
  onSubmit,
  children,
  disabled,
}: {
  legend: string;
  /** The submit button's name: what it does ("Approve demand"). */
  action: string;
  state: ActionState;
  onSubmit: () => void;
  children?: ComponentChildren;
  disabled?: boolean;
}) {
  return (
    <form
      class="action-form"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <fieldset>
        <legend>{legend}</legend>
        {children}
        <button type="submit" disabled={disabled || state.pending !== null}>
          {action}
        </button>
      </fieldset>
    </form>
  );
}

/** Where a panel's refusal and result show: an alert for the refusal, a polite status line for the rest. */
export function ActionOutcome({ state }: { state: ActionState }) {
  return (
    <div class="action-outcome">
      {state.problem !== null && <ProblemMessage error={state.problem} />}
      <p role="status" aria-live="polite">
        {state.pending ? `${state.pending}…` : (state.done ?? "")}
      </p>
    </div>
  );
}
