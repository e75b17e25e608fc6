import { useState } from "preact/hooks";
import type { RankingClass, RankingInput, WaveHotel } from "../case-types.js";
import { formatMoney, label } from "../format.js";
import { type Column, DataTable } from "./data-table.js";

const FIRST_ROWS = 12;

/**
 * The wave's rankingInputs (spec 2.6) as a table of why each hotel won or lost: the chosen offers
 * first by score, then the discarded ones with their reasons. Lower scores are better. A class's
 * discarded row is about the class's groups not placed in the hotel, which the wave does not list
 * row by row: the table names the class.
 */
export function RankingTable({
  verdicts,
  classes,
  hotels,
}: {
  verdicts: RankingInput[];
  classes: RankingClass[];
  hotels: WaveHotel[];
}) {
  const [all, setAll] = useState(false);
  const names = new Map(hotels.map((h) => [h.hotelUrn, h.name]));
  const classOf = new Map(classes.map((c) => [c.classId, c]));
  const groupsOf = (v: RankingInput) => {
    if (v.groupIds) return v.groupIds.join(", ");
    const rankingClass = v.classId === null ? undefined : classOf.get(v.classId);
    return rankingClass
      ? `The others of ${rankingClass.rooms} room(s) x ${rankingClass.nights} night(s)`
      : "All";
  };
  const sorted = [...verdicts].sort(
    (a, b) =>
      rank(a) - rank(b) ||
      (a.weightedScore ?? Number.POSITIVE_INFINITY) - (b.weightedScore ?? Number.POSITIVE_INFINITY) ||
      (a.raw.distanceKm ?? 0) - (b.raw.distanceKm ?? 0),
  );
  const shown = all ? sorted : sorted.slice(0, FIRST_ROWS);
  const columns: Column<RankingInput>[] = [
    { header: "Hotel", cell: (v) => names.get(v.hotelUrn) ?? v.hotelUrn },
    { header: "Vendor", cell: (v) => v.provider },
    { header: "Groups", cell: groupsOf },
    { header: "Nightly rate", cell: (v) => formatMoney(v.raw.nightlyRate) },
    {
      header: "Distance",
      cell: (v) => (v.raw.distanceKm === null ? "—" : `${v.raw.distanceKm.toFixed(1)} km`),
    },
    { header: "Score", cell: (v) => (v.weightedScore === null ? "—" : v.weightedScore.toFixed(3)) },
    {
      header: "Criteria",
      cell: (v) =>
        v.normalized
          ? Object.entries(v.normalized)
              .map(([k, n]) => `${label(k)} ${n.toFixed(2)}`)
              .join(", ")
          : "—",
    },
    { header: "Outcome", cell: (v) => <span class={`status status-${v.outcome}`}>{label(v.outcome)}</span> },
    { header: "Why", cell: (v) => v.reasons.map(label).join("; ") },
  ];
  return (
    <>
      <DataTable
        rows={shown}
        columns={columns}
        rowKey={(v) => `${v.provider}|${v.providerOfferId}|${v.classId ?? ""}|${v.outcome}`}
        caption="Why each hotel won or lost"
        empty="The wave ranked no offer."
      />
      {sorted.length > FIRST_ROWS ? (
        <button type="button" onClick={() => setAll(!all)}>
          {all ? `Show the first ${FIRST_ROWS} verdicts` : `Show all ${sorted.length} verdicts`}
        </button>
      ) : null}
    </>
  );
}

function rank(verdict: RankingInput): number {
  return verdict.outcome === "selected" ? 0 : verdict.weightedScore !== null ? 1 : 2;
}
