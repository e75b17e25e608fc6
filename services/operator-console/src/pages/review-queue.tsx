import { useState } from "preact/hooks";
import type { Page } from "../case-types.js";
import { useSession } from "../session.js";
import { formatTime } from "../format.js";
import { SelectField, TextField } from "../actions/fields.js";
import { enumAt, useOperationInput } from "../actions/openapi.js";
import { may } from "../actions/permissions.js";
import { DataTable } from "../components/data-table.js";
import { ProblemMessage } from "../components/problem-message.js";
import { useResource } from "../components/use-resource.js";
import { type ReviewItem, ReviewItemPanel } from "../actions/review-item-panel.js";

const FILTERS = ["category", "priority", "state"] as const;
type Filter = (typeof FILTERS)[number];
const FILTER_LABELS: Record<Filter, string> = { category: "Category", priority: "Priority", state: "State" };

/**
 * The manual-review queue (GET /v1/booking/manual-review, OPS_SUPERVISOR and above; spec 2.5, 3.5):
 * HIGH first, then oldest; filtered by category, priority and state, a page at a time. An airport
 * operator, who may not list the queue, opens an item by its URN (or from its case).
 */
export function ReviewQueuePage({ query }: { query?: URLSearchParams }) {
  const operator = useSession();
  const input = useOperationInput("listManualReviewItems");
  const [filters, setFilters] = useState<Record<Filter, string>>({ category: "", priority: "", state: "" });
  const [cursors, setCursors] = useState<string[]>([]);
  // `?item=<urn>` opens one item (a link from its case).
  const [selected, setSelected] = useState<string | null>(query?.get("item") ?? null);
  const [urnInput, setUrnInput] = useState("");
  const canList = may(operator, "review.list");
  const cursor = cursors[cursors.length - 1];
  const search = new URLSearchParams({ limit: "50" });
  for (const filter of FILTERS) if (filters[filter]) search.set(filter, filters[filter]);
  if (cursor) search.set("cursor", cursor);
  const list = useResource<Page<ReviewItem>>(canList ? `/v1/booking/manual-review?${search}` : undefined);
  const page = list.data;

  const setFilter = (filter: Filter, value: string) => {
    setCursors([]);
    setFilters({ ...filters, [filter]: value });
  };

  return (
    <section class="page review-queue" aria-labelledby="review-queue-heading">
      <h1 id="review-queue-heading">Manual review</h1>
      {canList ? (
        <>
          <form class="filters" onSubmit={(event) => event.preventDefault()}>
            {FILTERS.map((filter) => (
              <SelectField
                key={filter}
                label={FILTER_LABELS[filter]}
                value={filters[filter]}
                onValue={(value) => setFilter(filter, value)}
                options={[["", "any"], ...enumAt(input?.query, [filter]).map((v) => [v, v] as const)]}
              />
            ))}
          </form>
          <ProblemMessage error={list.error} />
          {list.loading && <p role="status">Loading the queue…</p>}
          <DataTable
            rows={page?.items}
            columns={[
              {
                header: "Item",
                cell: (item: ReviewItem) => (
                  <button
                    type="button"
                    class="link"
                    aria-current={item.urn === selected ? "true" : undefined}
                    aria-label={`Open ${item.category} item of ${item.caseUrn}`}
                    onClick={() => setSelected(item.urn)}
                  >
                    Open {item.category}
                  </button>
                ),
              },
              { header: "Priority", cell: (item) => item.priority },
              { header: "State", cell: (item) => item.state },
              { header: "Airport", cell: (item) => item.airport },
              { header: "Groups", cell: (item) => item.affectedGroups.join(", ") },
              { header: "Assigned to", cell: (item) => item.assignedTo ?? "" },
              { header: "SLA due", cell: (item) => formatTime(item.slaDueAt) },
            ]}
            rowKey={(item) => item.urn}
            caption="Review items"
            empty="No review item matches."
          />
          <div class="pager">
            <button type="button" disabled={cursors.length === 0} onClick={() => setCursors([])}>
              First page
            </button>
            <button
              type="button"
              disabled={!page?.hasMore || !page.nextCursor}
              onClick={() => page?.nextCursor && setCursors([...cursors, page.nextCursor])}
            >
              Next page
            </button>
          </div>
        </>
      ) : (
        <p>The queue lists for supervisors; open an item of your airport by its URN, or from its case.</p>
      )}
      <form
        class="inline-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (urnInput.trim()) setSelected(urnInput.trim());
        }}
      >
        <TextField
          label="Review item URN"
          value={urnInput}
          onValue={setUrnInput}
          placeholder="urn:review-item:…"
        />
        <button type="submit">Open item</button>
      </form>
      {selected && (
        <ReviewItemPanel key={selected} urn={selected} operator={operator} onChanged={list.reload} />
      )}
    </section>
  );
}
