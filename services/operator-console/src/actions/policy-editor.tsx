import { useEffect, useState } from "preact/hooks";
import { api, segment } from "../api.js";
import {
  editableRules,
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
import { numberOrAbsent } from "./form-values.js";
import type { Policy, PolicyWithVersions } from "./policy-types.js";
import { ProblemMessage } from "../components/problem-message.js";
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
  if (changes.length === 0) return <p>{caption}: no change.</p>;
  return (
    <table class="policy-diff">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Field</th>
          <th scope="col">Before</th>
          <th scope="col">After</th>
        </tr>
      </thead>
      <tbody>
        {changes.map((change) => (
          <tr key={change.path}>
            <th scope="row">
              <code>{change.path}</code>
            </th>
            <td class="diff-before">
              <del>{shownValue(change.before)}</del>
            </td>
            <td class="diff-after">
              <ins>{shownValue(change.after)}</ins>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
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
  const [policy, setPolicy] = useState<PolicyWithVersions | null>(null);
  const [loadProblem, setLoadProblem] = useState<unknown>(null);
  const [draft, setDraft] = useState<PolicyRules>({});
  const [text, setText] = useState("");
  const [parseError, setParseError] = useState<string | null>(null);
  const [reason, setReason] = useState("");
  const [notice, setNotice] = useState<string | null>(null);
  const state = useAction();
  const input = useOperationInput("patchPolicy");

  const startFrom = (read: PolicyWithVersions) => {
    setPolicy(read);
    const rules = editableRules(read);
    setDraft(rules);
    setText(pretty(rules));
    setParseError(null);
  };
  const load = () =>
    api<PolicyWithVersions>("GET", `/v1/policies/${segment(urn)}`)
      .then(startFrom)
      .catch((error: unknown) => setLoadProblem(error));
  useEffect(() => {
    load();
  }, [urn]);

  if (loadProblem !== null) return <ProblemMessage error={loadProblem} />;
  if (!policy) return <p role="status">Loading {urn}…</p>;

  /** A change made in a field: the draft and its JSON follow. */
  const setRule = (path: readonly string[], value: unknown) => {
    const next: PolicyRules = structuredClone(draft);
    let node = next;
    for (const step of path.slice(0, -1)) {
      if (typeof node[step] !== "object" || node[step] === null) node[step] = {};
      node = node[step] as PolicyRules;
    }
    const last = path[path.length - 1]!;
    if (value === undefined) delete node[last];
    else node[last] = value;
    setDraft(next);
    setText(pretty(next));
  };
  const ruleText = (path: readonly string[]): string => {
    let node: unknown = draft;
    for (const step of path) node = (node as PolicyRules | undefined)?.[step];
    return node === undefined || node === null ? "" : String(node);
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

  const diff = policyDiff(editableRules(policy), draft);
  const changed = async (action: string, call: () => Promise<Policy>) => {
    setNotice(null);
    const after = await state.run(action, call);
    if (!after) return;
    if (action === "Send patch" && after.version !== policy.version + 1) {
      // The patch route takes no expected version: say so when another change came in between.
      setNotice(
        `Another change reached the policy since it was read: it is now version ${after.version}, not ${policy.version + 1}. Review it below.`,
      );
    }
    setReason("");
    await load();
    onChanged();
  };
  const withReason = (extra: Record<string, unknown> = {}) => ({
    ...extra,
    ...(reason.trim() ? { reason: reason.trim() } : {}),
  });
  const canPatch = may(operator, "policy.patch");
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

      {canPatch && (
        <form
          class="action-form"
          onSubmit={(event) => {
            event.preventDefault();
            changed("Send patch", () =>
              api<Policy>("POST", `/v1/policies/${segment(policy.urn)}/patch`, withReason(diff.patch)),
            );
          }}
        >
          <fieldset>
            <legend>Change the rules (version {policy.version})</legend>
            <TextField label="Name" value={ruleText(["name"])} onValue={(v) => setRule(["name"], v)} />
            <TextField
              label="Minimum stars"
              type="number"
              value={ruleText(["constraints", "minStars"])}
              onValue={(v) => setRule(["constraints", "minStars"], numberOrAbsent(v))}
            />
            <TextField
              label="Maximum distance (km)"
              type="number"
              value={ruleText(["constraints", "maxDistanceKm"])}
              onValue={(v) => setRule(["constraints", "maxDistanceKm"], numberOrAbsent(v))}
            />
            <TextField
              label="Maximum nightly rate"
              type="number"
              value={ruleText(["constraints", "maxNightlyRate"])}
              onValue={(v) => setRule(["constraints", "maxNightlyRate"], numberOrAbsent(v))}
            />
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
            <TextField
              label="Rooms approved automatically per wave"
              type="number"
              value={ruleText(["maxAutomaticRoomsPerWave"])}
              onValue={(v) => setRule(["maxAutomaticRoomsPerWave"], numberOrAbsent(v))}
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
            <button type="button" onClick={() => startFrom(policy)} disabled={diff.changes.length === 0}>
              Discard changes
            </button>
          </fieldset>
        </form>
      )}

      {canActivate && (
        <div class="policy-lifecycle">
          <h3>Lifecycle</h3>
          {!canPatch && <TextField label="Reason for the change" value={reason} onValue={setReason} />}
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
      {notice && (
        <p role="alert" class="notice">
          {notice}
        </p>
      )}
      <ActionOutcome state={state} />

      <table class="policy-versions">
        <caption>Version history</caption>
        <thead>
          <tr>
            <th scope="col">Version</th>
            <th scope="col">Written</th>
            <th scope="col">What it changed</th>
            {canActivate && <th scope="col">Restore</th>}
          </tr>
        </thead>
        <tbody>
          {versions.map((version, index) => {
            const previous = versions[index - 1];
            const changes = previous
              ? policyDiff(editableRules(previous), editableRules(version)).changes
              : [];
            return (
              <tr key={version.version}>
                <td>{version.version}</td>
                <td>{formatTime(version.updatedAt)}</td>
                <td>
                  {previous
                    ? changes
                        .map((c) => `${c.path}: ${shownValue(c.before)} → ${shownValue(c.after)}`)
                        .join("; ") || "no rule changed"
                    : "first version"}
                </td>
                {canActivate && (
                  <td>
                    {version.version !== policy.version && (
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
                    )}
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </article>
  );
}
