import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { ApiProblem, api, segment } from "../api.js";
import {
  applyPatch,
  editableRules,
  type PatchShape,
  patchShapeOf,
  type PolicyChange,
  type PolicyRules,
  policyDiff,
  shownValue,
} from "../policy-diff.js";
import type { Operator } from "../session.js";
import { formatTime } from "../format.js";
import { ActionOutcome, CheckboxField, SelectField, TextArea, TextField } from "./fields.js";
import { enumAt, useOperationInput } from "./openapi.js";
import { may } from "./permissions.js";
import { memberAt, numberOrAbsent, withMember } from "./form-values.js";
import { NUMBER_RULES, type Policy, type PolicyWithVersions } from "./policy-types.js";
import { type Column, DataTable } from "../components/data-table.js";
import { ProblemMessage } from "../components/problem-message.js";
import { useResource } from "../components/use-resource.js";
import { useAction } from "./use-action.js";

/** The lifecycle step each state offers (spec 3.2): activating an ARCHIVED policy is the rollback. */
const LIFECYCLE: Record<Policy["status"], { action: string; verb: "activate" | "deactivate" }> = {
  DRAFT: { action: "Activate policy", verb: "activate" },
  ARCHIVED: { action: "Roll back to this policy", verb: "activate" },
  ACTIVE: { action: "Archive policy", verb: "deactivate" },
};

const pretty = (rules: PolicyRules) => JSON.stringify(rules, null, 2);

/** The changes a patch makes (or a version made), one row per field. */
export function PolicyChangesTable({ caption, changes }: { caption: string; changes: PolicyChange[] }) {
  return (
    <div class="policy-diff">
      <h3>{caption}</h3>
      <DataTable
        rows={changes}
        columns={CHANGE_COLUMNS}
        rowKey={(change) => change.path}
        caption={caption}
        empty="No change."
      />
    </div>
  );
}

const CHANGE_COLUMNS: Column<PolicyChange>[] = [
  { header: "Field", cell: (change) => <code>{change.path}</code> },
  { header: "Before", cell: (change) => <del>{shownValue(change.before)}</del> },
  { header: "After", cell: (change) => <ins>{shownValue(change.after)}</ins> },
];

/** What a version changed from the one before it, in one line. */
function versionChanges(versions: readonly Policy[], index: number, shape: PatchShape): string {
  const previous = versions[index - 1];
  if (!previous) return "first version";
  const changes = policyDiff(
    editableRules(previous, shape),
    editableRules(versions[index]!, shape),
    shape,
  ).changes;
  return (
    changes.map((c) => `${c.path}: ${shownValue(c.before)} → ${shownValue(c.after)}`).join("; ") ||
    "no rule changed"
  );
}

/**
 * One policy: what it is, its rules edited with the changes shown before they are sent (POST
 * /v1/policies/{urn}/patch), its lifecycle (activate, roll back, archive: ADMIN, spec 3.2) and its
 * version history, each version with what it changed.
 */
export function PolicyEditor({
  urn,
  operator,
  onChanged,
}: {
  urn: string;
  operator: Operator | null;
  onChanged: () => void;
}) {
  const read = useResource<PolicyWithVersions>(`/v1/policies/${segment(urn)}`);
  const policy = read.data;
  const [draft, setDraft] = useState<PolicyRules>({});
  const [text, setText] = useState("");
  const [parseError, setParseError] = useState<string | null>(null);
  const [reason, setReason] = useState("");
  // The operator's changes, kept while the policy is read again after a conflicting change.
  const carried = useRef<PolicyRules | null>(null);
  const state = useAction();
  const input = useOperationInput("patchPolicy");
  const shape = useMemo(() => input && patchShapeOf(input.body, input.response), [input]);

  /** Edits start from the policy as read (again after each change), with any changes carried over. */
  const startFrom = (current: PolicyWithVersions, shape: PatchShape, changes: PolicyRules = {}) => {
    const rules = applyPatch(editableRules(current, shape), changes, shape);
    setDraft(rules);
    setText(pretty(rules));
    setParseError(null);
  };
  useEffect(() => {
    if (!policy || !shape) return;
    startFrom(policy, shape, carried.current ?? {});
    carried.current = null;
  }, [policy, shape]);

  if (!policy || !shape)
    return read.error ? <ProblemMessage error={read.error} /> : <p role="status">Loading {urn}…</p>;

  /** A change made in a field: the draft and its JSON follow. */
  const setRule = (path: readonly string[], value: unknown) => {
    const next = withMember(draft, path, value);
    setDraft(next);
    setText(pretty(next));
  };
  const ruleText = (path: readonly string[]): string => {
    const value = memberAt(draft, path);
    return value === undefined || value === null ? "" : String(value);
  };
  const onText = (value: string) => {
    setText(value);
    try {
      const parsed: unknown = JSON.parse(value);
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
        throw new Error("the rules are a JSON object");
      }
      setDraft(parsed as PolicyRules);
      setParseError(null);
    } catch (error) {
      setParseError(error instanceof Error ? error.message : String(error));
    }
  };

  const diff = policyDiff(editableRules(policy, shape), draft, shape);
  const changed = async (action: string, call: () => Promise<Policy>) => {
    const after = await state.run(action, call);
    if (!after) return;
    setReason("");
    read.reload();
    onChanged();
  };
  const withReason = (extra: Record<string, unknown> = {}) => ({
    ...extra,
    ...(reason.trim() ? { reason: reason.trim() } : {}),
  });
  const canPatch = may(operator, "policy.patch");
  // Without the operator OpenAPI document the console does not know which fields a patch takes.
  const patchKnown = shape.fields.length > 0;
  const canActivate = may(operator, "policy.activate");
  const lifecycle = LIFECYCLE[policy.status];
  const versions = policy.versions;

  return (
    <article class="policy-editor" aria-labelledby="policy-editor-heading">
      <h2 id="policy-editor-heading">
        {policy.name} <span class="badge">{policy.status}</span>
      </h2>
      <dl class="facts">
        <dt>URN</dt>
        <dd>
          <code>{policy.urn}</code>
        </dd>
        <dt>Version</dt>
        <dd>{policy.version}</dd>
        <dt>Context</dt>
        <dd>
          airport {policy.context.airport}, airline {policy.context.airline}, tiers{" "}
          {policy.tiers.length ? policy.tiers.join(", ") : "every tier"}
        </dd>
        <dt>Updated</dt>
        <dd>{formatTime(policy.updatedAt)}</dd>
        {policy.provenance && (
          <>
            <dt>Drafted from a description</dt>
            <dd>
              confidence {Math.round(policy.provenance.confidence * 100)} %: “{policy.provenance.prompt}”
            </dd>
          </>
        )}
      </dl>

      {canPatch && !patchKnown && (
        <p role="alert" class="problem">
          The rules cannot be edited: the operator API description did not load. Reload the page to try again.
        </p>
      )}
      {canPatch && patchKnown && (
        <form
          class="action-form"
          onSubmit={(event) => {
            event.preventDefault();
            changed("Send patch", () =>
              api<Policy>(
                "POST",
                `/v1/policies/${segment(policy.urn)}/patch`,
                // Only the version shown: another change since is a 409, not overwritten.
                withReason({ ...diff.patch, expectedVersion: policy.version }),
              ),
            );
          }}
        >
          <fieldset>
            <legend>Change the rules (version {policy.version})</legend>
            <TextField label="Name" value={ruleText(["name"])} onValue={(v) => setRule(["name"], v)} />
            {NUMBER_RULES.map((rule) => (
              <TextField
                key={rule.label}
                label={rule.label}
                type="number"
                value={ruleText(rule.path)}
                onValue={(v) => setRule(rule.path, numberOrAbsent(v))}
              />
            ))}
            <SelectField
              label="Mode"
              value={ruleText(["mode"])}
              onValue={(v) => setRule(["mode"], v)}
              options={
                enumAt(input?.body, ["mode"]).length ? enumAt(input?.body, ["mode"]) : [ruleText(["mode"])]
              }
            />
            <CheckboxField
              label="Approve demand automatically"
              checked={draft.autoApproveDemand === true}
              onChecked={(on) => setRule(["autoApproveDemand"], on)}
            />
            <TextArea label="All rules (JSON)" value={text} onValue={onText} rows={14} />
            {parseError && (
              <p role="alert" class="problem">
                The JSON does not read: {parseError}. The changes below are from the last JSON that did.
              </p>
            )}
            <PolicyChangesTable caption="Changes this patch makes" changes={diff.changes} />
            {diff.notPatchable.length > 0 && (
              <p role="alert" class="problem">
                A patch cannot change {diff.notPatchable.join(", ")}: those edits are not sent.
              </p>
            )}
            <TextField label="Reason for the change" value={reason} onValue={setReason} />
            <button type="submit" disabled={diff.changes.length === 0 || state.pending !== null}>
              Send patch
            </button>
            <button
              type="button"
              onClick={() => startFrom(policy, shape)}
              disabled={diff.changes.length === 0}
            >
              Discard changes
            </button>
          </fieldset>
        </form>
      )}

      {canActivate && (
        <div class="policy-lifecycle">
          <h3>Lifecycle</h3>
          {!(canPatch && patchKnown) && (
            <TextField label="Reason for the change" value={reason} onValue={setReason} />
          )}
          <button
            type="button"
            disabled={state.pending !== null}
            onClick={() =>
              changed(lifecycle.action, () =>
                api<Policy>("POST", `/v1/policies/${segment(policy.urn)}/${lifecycle.verb}`, withReason()),
              )
            }
          >
            {lifecycle.action}
          </button>
        </div>
      )}
      {state.problem instanceof ApiProblem && state.problem.code === "version-mismatch" && (
        <button
          type="button"
          onClick={() => {
            carried.current = diff.patch;
            read.reload();
          }}
        >
          Read the new version, keeping my edits
        </button>
      )}
      <ActionOutcome state={state} />

      <h3>Version history</h3>
      <DataTable
        rows={versions}
        columns={[
          { header: "Version", cell: (version: Policy) => version.version },
          { header: "Written", cell: (version) => formatTime(version.updatedAt) },
          {
            header: "What it changed",
            cell: (version) => versionChanges(versions, versions.indexOf(version), shape),
          },
          ...(canActivate
            ? [
                {
                  header: "Restore",
                  cell: (version: Policy) =>
                    version.version !== policy.version && (
                      <button
                        type="button"
                        disabled={state.pending !== null}
                        onClick={() =>
                          changed(`Restore version ${version.version}`, () =>
                            api<Policy>(
                              "POST",
                              `/v1/policies/${segment(policy.urn)}/activate`,
                              withReason({ version: version.version }),
                            ),
                          )
                        }
                      >
                        Restore version {version.version} and activate
                      </button>
                    ),
                },
              ]
            : []),
        ]}
        rowKey={(version) => String(version.version)}
        caption="Version history"
      />
    </article>
  );
}
