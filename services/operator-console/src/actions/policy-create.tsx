import { useState } from "preact/hooks";
import { api } from "../api.js";
import type { Operator } from "../session.js";
import { ActionForm, CheckboxField, SelectField, TextArea, TextField } from "./fields.js";
import { given, numberOrAbsent, withMember } from "./form-values.js";
import { enumAt, useOperationInput } from "./openapi.js";
import { NUMBER_RULES, type Policy } from "./policy-types.js";
import type { ActionState } from "./use-action.js";

/** The airline code a policy's context takes (`ZX`), from the operator's airline URN. */
function airlineCode(operator: Operator | null): string {
  return (operator?.airline ?? "").replace(/^urn:airline:/, "");
}

/**
 * POST /v1/policies: a DRAFT from the common rules (the rest is edited after, with the diff). The
 * allowed values come from the createPolicy schema of the operator OpenAPI document.
 */
export function PolicyCreateForm({
  operator,
  state,
  onCreated,
}: {
  operator: Operator | null;
  state: ActionState;
  onCreated: (policy: Policy) => void;
}) {
  const input = useOperationInput("createPolicy");
  const [name, setName] = useState("");
  const [airport, setAirport] = useState("");
  const [tiers, setTiers] = useState<string[]>([]);
  const [numbers, setNumbers] = useState<Record<string, string>>({});
  const [mode, setMode] = useState("ON_DEMAND");
  const [autoApprove, setAutoApprove] = useState(false);
  const [reason, setReason] = useState("");
  const modes = enumAt(input?.body, ["mode"]);

  const submit = async () => {
    const rules = NUMBER_RULES.reduce(
      (body, rule) => withMember(body, rule.path, numberOrAbsent(numbers[rule.label] ?? "")),
      given({
        name,
        context: given({
          airport: airport.trim() || undefined,
          airline: airlineCode(operator) || undefined,
        }),
        tiers,
        mode,
        autoApproveDemand: autoApprove,
        reason: reason.trim() || undefined,
      }),
    );
    const created = await state.run("Create policy", () => api<Policy>("POST", "/v1/policies", rules));
    if (created) onCreated(created);
  };

  return (
    <ActionForm legend="Create a draft policy" action="Create policy" state={state} onSubmit={submit}>
      <TextField label="Policy name" value={name} onValue={setName} required />
      <TextField label="Airport code (empty: every airport)" value={airport} onValue={setAirport} />
      <fieldset class="choices">
        <legend>Tiers (none: every tier)</legend>
        {enumAt(input?.body, ["tiers", "[]"]).map((tier) => (
          <CheckboxField
            key={tier}
            label={tier}
            checked={tiers.includes(tier)}
            onChecked={(on) => setTiers(on ? [...tiers, tier] : tiers.filter((t) => t !== tier))}
          />
        ))}
      </fieldset>
      {NUMBER_RULES.map((rule) => (
        <TextField
          key={rule.label}
          label={rule.label}
          type="number"
          value={numbers[rule.label] ?? ""}
          onValue={(v) => setNumbers({ ...numbers, [rule.label]: v })}
        />
      ))}
      {modes.length > 0 && <SelectField label="Mode" value={mode} onValue={setMode} options={modes} />}
      <CheckboxField label="Approve demand automatically" checked={autoApprove} onChecked={setAutoApprove} />
      <TextField label="Reason for the audit trail" value={reason} onValue={setReason} />
    </ActionForm>
  );
}

/**
 * POST /v1/policies/generate-ai: a DRAFT read from a plain-language description (rule-based; its
 * provenance carries the confidence). A supervisor reviews it in the editor before an admin
 * activates it.
 */
export function PolicySynthesisForm({
  state,
  onCreated,
}: {
  state: ActionState;
  onCreated: (policy: Policy) => void;
}) {
  const [description, setDescription] = useState("");
  const submit = async () => {
    const created = await state.run("Synthesize draft", () =>
      api<Policy>("POST", "/v1/policies/generate-ai", { description }),
    );
    if (created) onCreated(created);
  };
  return (
    <ActionForm
      legend="Draft a policy from a description"
      action="Synthesize draft"
      state={state}
      onSubmit={submit}
    >
      <TextArea label="Description" value={description} onValue={setDescription} required />
    </ActionForm>
  );
}
