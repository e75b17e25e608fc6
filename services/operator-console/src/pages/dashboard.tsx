import { useState } from "preact/hooks";
import { Link } from "../components/link.js";
import { ProblemMessage } from "../components/problem-message.js";
import { StatusBadge } from "../components/status-badge.js";
import { useResource } from "../components/use-resource.js";
import { formatTime, label } from "../format.js";
import { pathTo } from "../router.js";
import { useSession } from "../session.js";
import type { CaseSummary, Page } from "../case-types.js";

interface Dashboard {
  airport: string | null;
  cases: { total: number; byStatus: Record<string, number> };
  manualReview: { open: number; byCategory: Record<string, number> };
  demand: { demands: number; pendingApprovals: number; roomsRequested: number; roomsApproved: number };
  /** A domain whose sub-call failed (composition route, spec 4.1): the rest is still shown. */
  partialFailures: Array<{ domain: string; detail?: string }>;
}

/** `GET /v1/cases/dashboard` (spec 4.1) and the latest cases. */
export function DashboardPage() {
  const operator = useSession();
  const [airport, setAirport] = useState(operator?.airport ?? "");
  const query = /^[A-Z]{3}$/.test(airport) ? `?airport=${airport}` : "";
  const dashboard = useResource<Dashboard>(`/v1/cases/dashboard${query}`);
  const latest = useResource<Page<CaseSummary>>(`/v1/cases?limit=5${query ? `&airport=${airport}` : ""}`);
  const d = dashboard.data;
  return (
    <>
      <h1>Dashboard</h1>
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          Airport
          <input
            value={airport}
            maxLength={3}
            placeholder="all"
            disabled={!!operator?.airport}
            onInput={(e) => setAirport(e.currentTarget.value.toUpperCase())}
          />
        </label>
      </form>
      <ProblemMessage error={dashboard.error} />
      {d ? (
        <>
          {d.partialFailures.length > 0 ? (
            <p class="problem" role="alert">
              Not available right now: {d.partialFailures.map((f) => f.domain).join(", ")}
            </p>
          ) : null}
          <div class="tiles">
            <section class="tile" aria-labelledby="tile-cases">
              <h2 id="tile-cases">Cases</h2>
              <p class="figure">{d.cases.total}</p>
              <Counts counts={d.cases.byStatus} />
            </section>
            <section class="tile" aria-labelledby="tile-review">
              <h2 id="tile-review">Manual review</h2>
              <p class="figure">{d.manualReview.open}</p>
              <Counts counts={d.manualReview.byCategory} />
            </section>
            <section class="tile" aria-labelledby="tile-demand">
              <h2 id="tile-demand">Demand</h2>
              <p class="figure">{d.demand.demands}</p>
              <dl class="counts">
                <dt>Pending approvals</dt>
                <dd>{d.demand.pendingApprovals}</dd>
                <dt>Rooms requested</dt>
                <dd>{d.demand.roomsRequested}</dd>
                <dt>Rooms approved</dt>
                <dd>{d.demand.roomsApproved}</dd>
              </dl>
            </section>
          </div>
        </>
      ) : dashboard.loading ? (
        <p role="status">Loading the dashboard…</p>
      ) : null}
      <h2>Latest cases</h2>
      <ProblemMessage error={latest.error} />
      <ul class="plain">
        {latest.data?.items.map((c) => (
          <li key={c.urn}>
            <Link to={pathTo("/cases/:caseUrn", { caseUrn: c.urn })}>
              {c.flightNumber} {c.airport}
            </Link>{" "}
            <StatusBadge status={c.status} /> opened {formatTime(c.openedAt)}
          </li>
        ))}
      </ul>
    </>
  );
}

function Counts({ counts }: { counts: Record<string, number> }) {
  const shown = Object.entries(counts).filter(([, n]) => n > 0);
  if (shown.length === 0) return <p class="muted">None</p>;
  return (
    <dl class="counts">
      {shown.map(([key, n]) => (
        <>
          <dt key={`${key}-t`}>{label(key)}</dt>
          <dd key={`${key}-d`}>{n}</dd>
        </>
      ))}
    </dl>
  );
}
