import { useState } from "preact/hooks";
import type { RankingInput, WaveHotel } from "../case-types.js";
import { formatMoney, label } from "../format.js";
import { type Column, DataTable } from "./data-table.js";

const FIRST_ROWS = 12;

/**
 * The wave's rankingInputs (spec 2.6) as a table of why each hotel won or lost: the chosen offers
 * first by score, then the discarded ones with their reasons. Lower scores are better.
 */
export function RankingTable({ verdicts, hotels }: { verdicts: RankingInput[]; hotels: WaveHotel[] }) {
  const [all, setAll] = useState(false);
  const names = new Map(hotels.map((h) => [h.hotelUrn, h.name]));
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
    { header: "Groups", cell: (v) => v.groupIds?.join(", ") ?? "All" },
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
        rowKey={(v) => `${v.provider}|${v.providerOfferId}|${v.groupIds?.join(",") ?? ""}`}
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
