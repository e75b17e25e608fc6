import { useEffect, useState } from "preact/hooks";
import { api } from "../api.js";
import type { Page } from "../case-types.js";
import { useSession } from "../session.js";
import { formatTime } from "../format.js";
import { SelectField, TextField } from "../actions/fields.js";
import { enumAt, useOperationInput } from "../actions/openapi.js";
import { may } from "../actions/permissions.js";
import { ProblemMessage } from "../components/problem-message.js";
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
  const [page, setPage] = useState<Page<ReviewItem> | null>(null);
  const [problem, setProblem] = useState<unknown>(null);
  // `?item=<urn>` opens one item (a link from its case).
  const [selected, setSelected] = useState<string | null>(query?.get("item") ?? null);
  const [urnInput, setUrnInput] = useState("");
  const [generation, setGeneration] = useState(0);
  const canList = may(operator, "review.list");
  const cursor = cursors[cursors.length - 1];

  useEffect(() => {
    if (!canList) return;
    const query = new URLSearchParams({ limit: "50" });
    for (const filter of FILTERS) if (filters[filter]) query.set(filter, filters[filter]);
    if (cursor) query.set("cursor", cursor);
    setProblem(null);
    api<Page<ReviewItem>>("GET", `/v1/booking/manual-review?${query}`)
      .then(setPage)
      .catch((error: unknown) => setProblem(error));
  }, [canList, filters, cursor, generation]);

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
          {problem !== null && <ProblemMessage error={problem} />}
          <table>
            <caption>Review items{page ? ` (${page.items.length} on this page)` : ""}</caption>
            <thead>
              <tr>
                <th scope="col">Item</th>
                <th scope="col">Priority</th>
                <th scope="col">State</th>
                <th scope="col">Airport</th>
                <th scope="col">Groups</th>
                <th scope="col">Assigned to</th>
                <th scope="col">SLA due</th>
              </tr>
            </thead>
            <tbody>
              {page === null && problem === null && (
                <tr>
                  <td colSpan={7}>Loading…</td>
                </tr>
              )}
              {page?.items.map((item) => (
                <tr key={item.urn} aria-current={item.urn === selected ? "true" : undefined}>
                  <td>
                    <button
                      type="button"
                      class="link"
                      aria-label={`Open ${item.category} item of ${item.caseUrn}`}
                      onClick={() => setSelected(item.urn)}
                    >
                      Open {item.category}
                    </button>
                  </td>
                  <td>{item.priority}</td>
                  <td>{item.state}</td>
                  <td>{item.airport}</td>
                  <td>{item.affectedGroups.join(", ")}</td>
                  <td>{item.assignedTo ?? ""}</td>
                  <td>{formatTime(item.slaDueAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
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
        <ReviewItemPanel
          key={selected}
          urn={selected}
          operator={operator}
          onChanged={() => setGeneration((g) => g + 1)}
        />
      )}
    </section>
  );
}
