import { useCallback, useRef } from "preact/hooks";
import type {
  Airport,
  Allocation,
  AuditEntry,
  CaseDetail,
  CaseProgress,
  ManifestEntry,
  NotificationEntry,
  Page,
  Reservation,
  Wave,
} from "../case-types.js";
import { AllocationMap } from "../components/allocation-map.js";
import { RankingTable } from "../components/ranking-table.js";
import { SagaStepBar } from "../components/saga-step-bar.js";
import { CaseActionsSection } from "../actions/case-actions-section.js";
import { type Column, DataTable } from "../components/data-table.js";
import { countOf, PageContents } from "../components/page-contents.js";
import { ProblemMessage } from "../components/problem-message.js";
import { StatusBadge } from "../components/status-badge.js";
import { SubCaseActions } from "../components/sub-case-actions.js";
import { useResource } from "../components/use-resource.js";
import { segment } from "../api.js";
import { formatMoney, formatTime, label } from "../format.js";
import { type LiveEvent, useLive } from "../live.js";
import { forgetLock } from "../locks.js";
import { can, useSession } from "../session.js";

function subCaseColumns(me: string | undefined, reload: () => void): Column<ManifestEntry>[] {
  return [
    { header: "Group", cell: (entry) => entry.groupId },
    { header: "Passengers", cell: (entry) => entry.passengers.map((p) => p.lastName).join(", ") },
    { header: "Sub-case", cell: (entry) => <StatusBadge status={entry.status} /> },
    {
      header: "Lock",
      cell: (entry) =>
        entry.lockedBy === null
          ? "Unlocked"
          : entry.lockedBy === me
            ? "Locked by you"
            : `Locked by ${entry.lockedBy}`,
    },
    { header: "Actions", cell: (entry) => <SubCaseActions entry={entry} onChanged={reload} /> },
  ];
}

const allocationColumns = (hotelName: (urn: string) => string): Column<Allocation>[] => [
  { header: "Group", cell: (a) => a.groupId },
  { header: "Hotel", cell: (a) => hotelName(a.hotelUrn) },
  { header: "Rooms", cell: (a) => a.rooms },
  { header: "Nights", cell: (a) => a.nights },
  { header: "Nightly rate", cell: (a) => formatMoney(a.nightlyRate) },
  { header: "Cost", cell: (a) => formatMoney(a.cost) },
];

const RESERVATION_COLUMNS: Column<Reservation>[] = [
  { header: "Group", cell: (r) => r.groupId },
  {
    header: "Hotel",
    cell: (r) => (
      <>
        {r.hotel.name}
        <br />
        <span class="muted">{r.hotel.address}</span>
      </>
    ),
  },
  { header: "Stay", cell: (r) => `${r.checkIn} to ${r.checkOut}` },
  { header: "Status", cell: (r) => <StatusBadge status={r.status} /> },
  { header: "Cost", cell: (r) => formatMoney(r.cost) },
  {
    header: "Voucher",
    cell: (r) => (r.voucher ? `${r.voucher.verificationCode} (v${r.voucher.version})` : "—"),
  },
];

const NOTIFICATION_COLUMNS: Column<NotificationEntry>[] = [
  { header: "Group", cell: (n) => n.groupId ?? "—" },
  { header: "Template", cell: (n) => label(n.template) },
  { header: "Status", cell: (n) => <StatusBadge status={n.status} /> },
  {
    header: "Channel",
    cell: (n) =>
      n.channel ?? n.attempts.map((a) => `${a.channel}: ${label(a.reason ?? a.status)}`).join("; "),
  },
  { header: "Sent", cell: (n) => formatTime(n.createdAt) },
];

/**
 * One case (spec 4.1 case detail): its summary, then the allocation (the picture around the airport
 * and its table, what an operator looks at first), its groups and sub-cases with their locks and the
 * actions on them, reservations and vouchers, saga progress per sub-case, notifications and the
 * audit trail, kept current by the case's room on the real-time channel (spec 6.2).
 */
export function CaseDetailPage({ params }: { params: Record<string, string> }) {
  const caseUrn = params.caseUrn!;
  const operator = useSession();
  const path = `/v1/cases/${segment(caseUrn)}`;
  const detail = useResource<CaseDetail>(path);
  const manifest = useResource<Page<ManifestEntry>>(`${path}/manifest?limit=100`);
  const progress = useResource<CaseProgress>(`/v1/orchestration/cases/${segment(caseUrn)}/progress`);
  const reservations = useResource<Page<Reservation>>(`/v1/booking/cases/${segment(caseUrn)}/reservations`);
  const notifications = useResource<Page<NotificationEntry>>(`/v1/notifications/case/${segment(caseUrn)}`);
  const waveUrn = detail.data?.wave?.urn;
  const wave = useResource<Wave>(waveUrn ? `/v1/allocation/wave/${segment(waveUrn)}` : undefined);
  const airports = useResource<{ items: Airport[] }>(
    wave.data ? `/v1/airports/search?q=${encodeURIComponent(wave.data.airport)}` : undefined,
  );
  const airport = airports.data?.items.find((a) => a.code === wave.data?.airport);
  const mayAudit = can(operator, ["FINANCE_AUDIT", "OPS_SUPERVISOR"]);
  const audit = useResource<Page<AuditEntry>>(
    mayAudit ? `/v1/audit/case/${segment(caseUrn)}?limit=100` : undefined,
  );

  const reloadAll = useCallback(() => {
    for (const resource of [detail, manifest, progress, reservations, notifications, audit, wave])
      resource.reload();
  }, [detail, manifest, progress, reservations, notifications, audit, wave]);

  // Events come in bursts (a saga runs several steps in a few milliseconds): one read per burst.
  const pending = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const onEvent = (event: LiveEvent) => {
    if (event.event === "subcase:state-changed" && event.data.lockedBy === null) {
      forgetLock(String(event.data.subCaseUrn));
    }
    clearTimeout(pending.current);
    pending.current = setTimeout(reloadAll, 150);
  };
  useLive(caseUrn, onEvent);

  const c = detail.data;
  if (!c) {
    return (
      <>
        <h1>Case</h1>
        <ProblemMessage error={detail.error} />
        {detail.loading ? <p role="status">Loading the case…</p> : null}
      </>
    );
  }
  return (
    <>
      <h1>
        Case {c.flight.number} {c.flight.origin}–{c.flight.destination}
      </h1>
      <dl class="facts">
        <dt>Status</dt>
        <dd>
          <StatusBadge status={c.status} />
        </dd>
        <dt>Priority</dt>
        <dd>{label(c.priority)}</dd>
        <dt>Departure</dt>
        <dd>{formatTime(c.flight.scheduledDeparture)}</dd>
        <dt>Next flight</dt>
        <dd>
          {c.nextFlight ? `${c.nextFlight.number}, ${formatTime(c.nextFlight.scheduledDeparture)}` : "—"}
        </dd>
        <dt>Opened</dt>
        <dd>{formatTime(c.openedAt)}</dd>
        <dt>URN</dt>
        <dd class="urn">{c.urn}</dd>
      </dl>
      <ProblemMessage error={detail.error} />
      <PageContents
        parts={[
          {
            id: "allocation",
            label: "Allocation",
            count: c.wave ? String(c.wave.allocations.length) : undefined,
          },
          { id: "sub-cases", label: "Groups", count: countOf(manifest.data) },
          { id: "case-actions", label: "Actions" },
          { id: "reservations", label: "Reservations", count: countOf(reservations.data) },
          { id: "progress", label: "Saga progress" },
          { id: "notifications", label: "Notifications", count: countOf(notifications.data) },
          ...(mayAudit ? [{ id: "audit", label: "Audit trail" }] : []),
        ]}
      />

      <section aria-labelledby="allocation">
        <h2 id="allocation">Allocation</h2>
        <ProblemMessage error={wave.error} />
        {wave.data && airport ? <AllocationMap airport={airport} wave={wave.data} /> : null}
        <DataTable
          rows={c.wave?.allocations ?? []}
          columns={allocationColumns((urn) => wave.data?.hotels.find((h) => h.hotelUrn === urn)?.name ?? urn)}
          rowKey={(a) => a.groupId}
          empty="No allocation yet."
        />
        {wave.data ? (
          <>
            <h3>Why each hotel won or lost</h3>
            <RankingTable
              verdicts={wave.data.rankingInputs}
              classes={wave.data.rankingClasses}
              hotels={wave.data.hotels}
            />
          </>
        ) : null}
      </section>

      <section aria-labelledby="sub-cases">
        <h2 id="sub-cases">Groups and sub-cases</h2>
        <ProblemMessage error={manifest.error} />
        <DataTable
          rows={manifest.data?.items}
          columns={subCaseColumns(operator?.operatorUrn, manifest.reload)}
          rowKey={(entry) => entry.subCaseUrn}
          rowAttributes={(entry) => ({ "data-sub-case": entry.subCaseUrn })}
        />
      </section>

      <CaseActionsSection caseView={c} operator={operator} onChanged={reloadAll} />

      <section aria-labelledby="reservations">
        <h2 id="reservations">Reservations and vouchers</h2>
        <ProblemMessage error={reservations.error} />
        <DataTable
          rows={reservations.data?.items}
          columns={RESERVATION_COLUMNS}
          rowKey={(r) => r.urn}
          empty="No reservation yet."
        />
      </section>

      <section aria-labelledby="progress">
        <h2 id="progress">Saga progress</h2>
        <ProblemMessage error={progress.error} />
        {progress.data?.subCases.map((s) => (
          <div key={s.subCaseUrn}>
            <h3>
              Group {s.groupId} <StatusBadge status={s.status} />
            </h3>
            <SagaStepBar groupId={s.groupId} steps={s.saga?.steps ?? []} />
          </div>
        ))}
      </section>

      <section aria-labelledby="notifications">
        <h2 id="notifications">Notifications</h2>
        <ProblemMessage error={notifications.error} />
        <DataTable
          rows={notifications.data?.items}
          columns={NOTIFICATION_COLUMNS}
          rowKey={(n) => n.notificationUrn}
          empty="No notification yet."
        />
      </section>

      {mayAudit ? (
        <section aria-labelledby="audit">
          <h2 id="audit">Audit trail</h2>
          <ProblemMessage error={audit.error} />
          <ol class="audit">
            {audit.data?.items.map((entry) => (
              <li key={entry.urn}>
                <time dateTime={entry.at}>{formatTime(entry.at)}</time> <code>{entry.action}</code> by{" "}
                {entry.actorUrn}
                {entry.reason ? <span class="muted"> ({entry.reason})</span> : null}
              </li>
            ))}
          </ol>
        </section>
      ) : null}
    </>
  );
}
