import type { AuditEntry, Page } from "../case-types.js";
import { type Column, DataTable } from "../components/data-table.js";
import { Pager, useCursorPages } from "../components/pager.js";
import { ProblemMessage } from "../components/problem-message.js";
import { useResource } from "../components/use-resource.js";
import { segment } from "../api.js";
import { formatTime } from "../format.js";
import { navigate, useLocation } from "../router.js";

const COLUMNS: Column<AuditEntry>[] = [
  { header: "When", cell: (e) => <time dateTime={e.at}>{formatTime(e.at)}</time> },
  { header: "Action", cell: (e) => <code>{e.action}</code> },
  { header: "By", cell: (e) => e.actorUrn },
  { header: "Entity", cell: (e) => <span class="urn">{e.entityUrn}</span> },
  { header: "Reason", cell: (e) => e.reason ?? "—" },
  { header: "Trace", cell: (e) => <span class="urn">{e.correlationUrn ?? "—"}</span> },
];

const FIELDS = ["caseUrn", "entityUrn", "action"] as const;

/**
 * The audit trail (spec 5.5; FINANCE_AUDIT and OPS_SUPERVISOR+): a case's entries, an entity's, or
 * entries of one action, with cursor paging.
 */
export function AuditPage() {
  const { query } = useLocation();
  const pages = useCursorPages();
  const caseUrn = query.get("caseUrn")?.trim();
  const entityUrn = query.get("entityUrn")?.trim();
  const action = query.get("action")?.trim();
  const params = new URLSearchParams({ limit: "50" });
  if (pages.cursor) params.set("cursor", pages.cursor);
  let path: string | undefined;
  if (caseUrn) path = `/v1/audit/case/${segment(caseUrn)}?${params}`;
  else if (entityUrn || action) {
    if (entityUrn) params.set("entityUrn", entityUrn);
    if (action) params.set("action", action);
    path = `/audit?${params}`;
  }
  const page = useResource<Page<AuditEntry>>(path);

  const search = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const next = new URLSearchParams();
    for (const name of FIELDS) {
      const value = String(form.get(name) ?? "").trim();
      if (value) next.set(name, value);
    }
    pages.reset();
    navigate(`/audit${next.size ? `?${next}` : ""}`);
  };

  return (
    <>
      <h1>Audit trail</h1>
      <form class="filters" key={query.toString()} onSubmit={search} aria-label="Find audit entries">
        <label>
          Case URN
          <input name="caseUrn" defaultValue={caseUrn ?? ""} size={40} />
        </label>
        <label>
          Entity URN
          <input name="entityUrn" defaultValue={entityUrn ?? ""} size={40} />
        </label>
        <label>
          Action
          <input name="action" defaultValue={action ?? ""} />
        </label>
        <button type="submit">Find entries</button>
      </form>
      {!path ? <p>Give a case URN, an entity URN or an action.</p> : null}
      <ProblemMessage error={page.error} />
      <DataTable
        rows={page.data?.items}
        columns={COLUMNS}
        rowKey={(e) => e.urn}
        caption="Audit entries"
        empty="No entry."
      />
      {path ? <Pager pages={pages} page={page.data} label="Pages of audit entries" /> : null}
    </>
  );
}
