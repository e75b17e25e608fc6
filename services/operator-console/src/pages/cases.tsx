import type { CaseSummary, Page } from "../case-types.js";
import { ChoiceField } from "../components/choice-field.js";
import { type Column, DataTable } from "../components/data-table.js";
import { Link } from "../components/link.js";
import { Pager, useCursorPages } from "../components/pager.js";
import { ProblemMessage } from "../components/problem-message.js";
import { StatusBadge } from "../components/status-badge.js";
import { useResource } from "../components/use-resource.js";
import { formatTime, label } from "../format.js";
import { navigate, pathTo, useLocation } from "../router.js";
import { useSession } from "../session.js";

const STATUSES = ["OPEN", "MANUAL_REVIEW", "CLOSED"];
const PRIORITIES = ["NORMAL", "HIGH", "URGENT"];
const PAGE_SIZE = 20;

/** The filters `GET /v1/cases` takes (spec 4.1: status, airport, from, to; priority), kept in the address. */
const FILTERS = ["status", "priority", "airport", "from", "to"] as const;

const COLUMNS: Column<CaseSummary>[] = [
  {
    header: "Flight",
    cell: (c) => (
      <>
        <Link to={pathTo("/cases/:caseUrn", { caseUrn: c.urn })}>{c.flightNumber}</Link>
        {c.drill ? <span class="badge">Drill</span> : null}
      </>
    ),
  },
  { header: "Airport", cell: (c) => c.airport },
  { header: "Status", cell: (c) => <StatusBadge status={c.status} /> },
  { header: "Priority", cell: (c) => label(c.priority) },
  { header: "Passengers", cell: (c) => c.passengerCount },
  { header: "Groups", cell: (c) => c.groupCount },
  { header: "Opened", cell: (c) => formatTime(c.openedAt) },
  { header: "Updated", cell: (c) => formatTime(c.updatedAt) },
];

/** `GET /v1/cases` with its filters and cursor paging. */
export function CasesPage() {
  const { query } = useLocation();
  const operator = useSession();
  const pages = useCursorPages();
  const cursor = pages.cursor;
  const params = new URLSearchParams({ limit: String(PAGE_SIZE) });
  for (const name of FILTERS) {
    const value = query.get(name);
    if (value) params.set(name, name === "from" || name === "to" ? new Date(value).toISOString() : value);
  }
  if (cursor) params.set("cursor", cursor);
  const page = useResource<Page<CaseSummary>>(`/v1/cases?${params}`);

  const apply = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const next = new URLSearchParams();
    for (const name of FILTERS) {
      const value = String(form.get(name) ?? "").trim();
      if (value) next.set(name, name === "airport" ? value.toUpperCase() : value);
    }
    pages.reset();
    navigate(`/cases${next.size ? `?${next}` : ""}`);
  };

  return (
    <>
      <h1>Cases</h1>
      <form class="filters" key={query.toString()} onSubmit={apply} aria-label="Filter cases">
        <ChoiceField name="status" title="Status" choices={STATUSES} value={query.get("status") ?? ""} />
        <ChoiceField
          name="priority"
          title="Priority"
          choices={PRIORITIES}
          value={query.get("priority") ?? ""}
        />
        <label>
          Airport
          <input
            name="airport"
            maxLength={3}
            pattern="[A-Za-z]{3}"
            defaultValue={operator?.airport ?? query.get("airport") ?? ""}
            disabled={!!operator?.airport}
          />
        </label>
        <label>
          Opened from
          <input name="from" type="datetime-local" defaultValue={query.get("from") ?? ""} />
        </label>
        <label>
          Opened to
          <input name="to" type="datetime-local" defaultValue={query.get("to") ?? ""} />
        </label>
        <button type="submit">Apply filters</button>
      </form>
      <ProblemMessage error={page.error} />
      <DataTable
        rows={page.data?.items}
        columns={COLUMNS}
        rowKey={(c) => c.urn}
        caption="Cases"
        empty="No case matches."
      />
      {!page.data && page.loading ? <p role="status">Loading cases…</p> : null}
      <Pager pages={pages} page={page.data} label="Pages of cases" />
    </>
  );
}
