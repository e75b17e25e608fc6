import { useState } from "preact/hooks";
import { api, segment } from "../api.js";
import { ProblemMessage } from "../components/problem-message.js";
import { useResource } from "../components/use-resource.js";
import { fencingTokenOf } from "../locks.js";
import type { Operator } from "../session.js";
import { ActionForm, ActionOutcome, SelectField, TextField } from "./fields.js";
import { enumAt, schemaAt, useOperationInput } from "./openapi.js";
import { may } from "./permissions.js";
import { useAction } from "./use-action.js";

/** GET /v1/subcases/{urn}: the operator's read of a sub-case. */
interface SubCase {
  groupId: string;
  status: string;
  version: number;
  answer: { kind: string } | null;
  vendorErrorCode: string | null;
}

/**
 * Compensation of one sub-case (spec 3.4, 4.1): the payload is the compensateSubCase body of the
 * operator OpenAPI document: the action (its allowed values and default from there), the fencing
 * token of the lock this window holds, and the version the operator read, so a sub-case that
 * changed since is refused (409 version-mismatch with the current version) rather than acted on
 * blind. 202: the saga runs asynchronously under the answered correlation URN.
 */
export function CompensationPanel({
  subCaseUrn,
  operator,
  onChanged,
}: {
  subCaseUrn: string;
  operator: Operator | null;
  onChanged?: () => void;
}) {
  const read = useResource<SubCase>(`/v1/subcases/${segment(subCaseUrn)}`);
  const subCase = read.data;
  const [action, setAction] = useState("");
  const [reason, setReason] = useState("");
  const [accepted, setAccepted] = useState<string | null>(null);
  const state = useAction();
  const input = useOperationInput("compensateSubCase");
  const actions = enumAt(input?.body, ["action"]);
  const fallback = schemaAt(input?.body, ["action"])?.default;
  const chosen = action || (typeof fallback === "string" ? fallback : (actions[0] ?? ""));

  if (!may(operator, "subcase.compensate")) return null;
  const compensate = async () => {
    setAccepted(null);
    const fencingToken = fencingTokenOf(subCaseUrn);
    const answer = await state.run("Compensate", () =>
      api<{ correlationUrn: string; status: string; version: number }>(
        "POST",
        `/v1/subcases/${segment(subCaseUrn)}/compensate`,
        {
          ...(chosen ? { action: chosen } : {}),
          ...(fencingToken !== undefined ? { fencingToken } : {}),
          ...(subCase ? { expectedVersion: subCase.version } : {}),
          ...(reason.trim() ? { reason: reason.trim() } : {}),
        },
      ),
    );
    if (answer) {
      setAccepted(`Accepted: ${answer.status}, version ${answer.version}, run ${answer.correlationUrn}`);
      setReason("");
      onChanged?.();
    }
    read.reload();
  };

  const group = subCase?.groupId ?? subCaseUrn;
  return (
    <section class="compensation" aria-label={`Compensation of group ${group}`}>
      {subCase && (
        <p>
          Group {subCase.groupId}: <strong>{subCase.status}</strong> (version {subCase.version})
          {subCase.vendorErrorCode ? `, vendor error ${subCase.vendorErrorCode}` : ""}
          {subCase.answer ? `, passenger ${subCase.answer.kind.toLowerCase()}` : ""}
        </p>
      )}
      <ActionForm
        legend={`Submit compensation for group ${group}`}
        action="Compensate"
        state={state}
        onSubmit={compensate}
      >
        {actions.length > 0 && (
          <SelectField label="Compensation action" value={chosen} onValue={setAction} options={actions} />
        )}
        <TextField label="Reason for the compensation" value={reason} onValue={setReason} />
      </ActionForm>
      {accepted && <p role="status">{accepted}</p>}
      <ProblemMessage error={read.error} />
      <ActionOutcome state={state} />
    </section>
  );
}
