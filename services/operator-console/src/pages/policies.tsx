import { useEffect, useState } from "preact/hooks";
import { api, segment } from "../api.js";
import type { Page } from "../case-types.js";
import { type Operator, useSession } from "../session.js";
import { ActionOutcome } from "../actions/fields.js";
import { may } from "../actions/permissions.js";
import { DataTable } from "../components/data-table.js";
import { ProblemMessage } from "../components/problem-message.js";
import { PolicyCreateForm, PolicySynthesisForm } from "../actions/policy-create.js";
import { PolicyEditor } from "../actions/policy-editor.js";
import { useAction } from "../actions/use-action.js";
import { TextField } from "../actions/fields.js";
import type { Policy } from "../actions/policy-types.js";

/** How many pages of the policy audit trail the list reads to find drafts and archived policies. */
const AUDIT_PAGES = 5;

/**
 * The policies the console lists: the ACTIVE ones (GET /v1/policies/active), and, for roles that
 * read the audit trail, every other policy the trail names (drafts and archived ones: the API lists
 * no others, spec 4.1), each read as it stands now.
 */
async function listPolicies(operator: Operator | null): Promise<Policy[]> {
  const active = await api<Page<Policy>>("GET", "/v1/policies/active?limit=200");
  if (!may(operator, "policy.history")) return active.items;
  const known = new Set(active.items.map((p) => p.urn));
  const others: string[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < AUDIT_PAGES; page++) {
    const trail: Page<{ entityUrn: string | null }> = await api(
      "GET",
      `/audit?entity=policy&limit=200${cursor ? `&cursor=${segment(cursor)}` : ""}`,
    );
    for (const entry of trail.items) {
      if (entry.entityUrn && !known.has(entry.entityUrn)) {
        known.add(entry.entityUrn);
        others.push(entry.entityUrn);
      }
    }
    if (!trail.hasMore || !trail.nextCursor) break;
    cursor = trail.nextCursor;
  }
  const read = await Promise.all(others.map((urn) => api<Policy>("GET", `/v1/policies/${segment(urn)}`)));
  return [...active.items, ...read];
}

/** The policy editor (spec 2.4, 3.2): list, create, synthesize, patch with a diff, activate, roll back. */
export function PoliciesPage({ query }: { query?: URLSearchParams }) {
  const operator = useSession();
  const [policies, setPolicies] = useState<Policy[] | null>(null);
  // `?policy=<urn>` opens one policy (a link from elsewhere).
  const [selected, setSelected] = useState<string | null>(query?.get("policy") ?? null);
  const [urnInput, setUrnInput] = useState("");
  const [loadProblem, setLoadProblem] = useState<unknown>(null);
  const [generation, setGeneration] = useState(0);
  const state = useAction();

  useEffect(() => {
    setLoadProblem(null);
    listPolicies(operator)
      .then(setPolicies)
      .catch((error: unknown) => setLoadProblem(error));
  }, [generation, operator?.role]);

  const reload = () => setGeneration((g) => g + 1);
  const opened = (policy: Policy) => {
    setSelected(policy.urn);
    reload();
  };

  return (
    <section class="page policies" aria-labelledby="policies-heading">
      <h1 id="policies-heading">Policies</h1>
      {loadProblem !== null && <ProblemMessage error={loadProblem} />}
      {policies === null && loadProblem === null && <p role="status">Loading the policies…</p>}
      <DataTable
        rows={policies ?? undefined}
        columns={[
          {
            header: "Name",
            cell: (policy: Policy) => (
              <button
                type="button"
                class="link"
                aria-current={policy.urn === selected ? "true" : undefined}
                onClick={() => setSelected(policy.urn)}
              >
                Open {policy.name}
              </button>
            ),
          },
          { header: "Airport", cell: (policy) => policy.context.airport },
          {
            header: "Tiers",
            cell: (policy) => (policy.tiers.length ? policy.tiers.join(", ") : "every tier"),
          },
          { header: "Status", cell: (policy) => policy.status },
          { header: "Version", cell: (policy) => policy.version },
          { header: "URN", cell: (policy) => <code>{policy.urn}</code> },
        ]}
        rowKey={(policy) => policy.urn}
        caption="Policies of the airline"
        empty="No policy yet."
      />
      <form
        class="inline-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (urnInput.trim()) setSelected(urnInput.trim());
        }}
      >
        <TextField label="Policy URN" value={urnInput} onValue={setUrnInput} placeholder="urn:policy:…" />
        <button type="submit">Open policy</button>
      </form>

      {selected && <PolicyEditor key={selected} urn={selected} operator={operator} onChanged={reload} />}

      {may(operator, "policy.create") && (
        <div class="policy-drafting">
          <h2>New policy</h2>
          <PolicyCreateForm operator={operator} state={state} onCreated={opened} />
          <PolicySynthesisForm state={state} onCreated={opened} />
          <ActionOutcome state={state} />
        </div>
      )}
    </section>
  );
}
