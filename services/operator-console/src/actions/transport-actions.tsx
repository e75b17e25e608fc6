import { useState } from "preact/hooks";
import { api, segment } from "../api.js";
import type { CaseDetail } from "../case-types.js";
import type { Operator } from "../session.js";
import { type Column, DataTable } from "../components/data-table.js";
import { formatTime } from "../format.js";
import { ActionForm, ActionOutcome, CheckboxField, SelectField, TextField } from "./fields.js";
import { isoFromLocal, listOf } from "./form-values.js";
import { enumAt, useOperationInput } from "./openapi.js";
import { may } from "./permissions.js";
import { useAction } from "./use-action.js";

/** A transport segment (spec 2.8; the operator OpenAPI document's segment). */
interface Segment {
  urn: string;
  groupId: string;
  direction: string;
  scheduledAt: string;
  vehicleType: string;
  status: string;
  providerError: string | null;
  ride: { provider: string; vehicle: string | null; driver: string | null; etaAt: string | null } | null;
  cancellation: { reason: string } | null;
}

const SEGMENT_COLUMNS: Column<Segment>[] = [
  { header: "Group", cell: (s) => s.groupId },
  { header: "Direction", cell: (s) => s.direction },
  { header: "Pickup", cell: (s) => formatTime(s.scheduledAt) },
  { header: "Vehicle", cell: (s) => s.vehicleType },
  {
    header: "Status",
    cell: (s) =>
      `${s.status}${s.providerError ? ` (${s.providerError})` : ""}${s.cancellation ? `: ${s.cancellation.reason}` : ""}`,
  },
  {
    header: "Ride",
    cell: (s) =>
      s.ride
        ? [s.ride.provider, s.ride.vehicle, s.ride.driver, s.ride.etaAt && `ETA ${formatTime(s.ride.etaAt)}`]
            .filter(Boolean)
            .join(", ")
        : "",
  },
];

/**
 * Ground transport of a case (spec 2.8, 4.1, 4.2): ask the ride provider for the case's transfers,
 * book one leg, and change a leg (retime, vehicle, cancel: each with a reason, audited).
 */
export function TransportActions({
  caseView,
  operator,
}: {
  caseView: CaseDetail;
  operator: Operator | null;
}) {
  const state = useAction();
  const input = useOperationInput("createTransportSegment");
  const directions = enumAt(input?.body, ["direction"]);
  const vehicles = enumAt(input?.body, ["vehicleType"]);
  const [segments, setSegments] = useState<Segment[]>([]);
  const [chosenDirections, setChosenDirections] = useState<string[]>([]);
  const [skipped, setSkipped] = useState<string | null>(null);
  const [reservationUrn, setReservationUrn] = useState("");
  const [direction, setDirection] = useState("");
  const [pickup, setPickup] = useState("");
  const [vehicle, setVehicle] = useState("");
  const [requirements, setRequirements] = useState("");
  const [selected, setSelected] = useState<string>("");
  const [newTime, setNewTime] = useState("");
  const [newVehicle, setNewVehicle] = useState("");
  const [reason, setReason] = useState("");

  if (!may(operator, "transport.change")) return null;
  /** The segment as it stands now replaces the one shown. */
  const show = (segment: Segment) =>
    setSegments((shown) => [segment, ...shown.filter((s) => s.urn !== segment.urn)]);
  const segmentUrn = selected || segments[0]?.urn || "";
  const segmentPath = (verb: string) => `/transport/segments/${segment(segmentUrn)}/${verb}`;
  const change = async (name: string, verb: string, body: Record<string, unknown>) => {
    const after = await state.run(name, () => api<Segment>("POST", segmentPath(verb), { ...body, reason }));
    if (after) {
      show(after);
      setReason("");
    }
  };

  return (
    <section class="transport-actions" aria-label="Ground transport">
      <ActionForm
        legend="Ask the ride provider for the case's transfers"
        action="Request transfers"
        state={state}
        onSubmit={async () => {
          setSkipped(null);
          const answer = await state.run("Request transfers", () =>
            api<{ segments: Segment[]; skipped: { groupId: string; direction: string; reason: string }[] }>(
              "POST",
              `/v1/transport/cases/${segment(caseView.urn)}/transfers/request`,
              chosenDirections.length ? { directions: chosenDirections } : {},
            ),
          );
          if (answer) {
            setSegments(answer.segments);
            if (answer.skipped.length) {
              setSkipped(
                `Not asked: ${answer.skipped.map((s) => `${s.groupId} ${s.direction} (${s.reason})`).join(", ")}`,
              );
            }
          }
        }}
      >
        {directions.map((d) => (
          <CheckboxField
            key={d}
            label={`Direction ${d}`}
            checked={chosenDirections.includes(d)}
            onChecked={(on) =>
              setChosenDirections(on ? [...chosenDirections, d] : chosenDirections.filter((x) => x !== d))
            }
          />
        ))}
      </ActionForm>
      {skipped && <p role="status">{skipped}</p>}

      {caseView.reservations.length > 0 && (
        <ActionForm
          legend="Book one leg"
          action="Create segment"
          state={state}
          onSubmit={async () => {
            const created = await state.run("Create segment", () =>
              api<Segment>("POST", "/transport/segments", {
                reservationUrn: reservationUrn || caseView.reservations[0]!.reservationUrn,
                direction: direction || directions[0],
                scheduledAt: isoFromLocal(pickup),
                ...(vehicle ? { vehicleType: vehicle } : {}),
                ...(requirements.trim() ? { specialRequirements: listOf(requirements) } : {}),
              }),
            );
            if (created) show(created);
          }}
        >
          <SelectField
            label="Reservation"
            value={reservationUrn || caseView.reservations[0]!.reservationUrn}
            onValue={setReservationUrn}
            options={caseView.reservations.map(
              (r) => [r.reservationUrn, `${r.groupId}: ${r.reservationUrn}`] as const,
            )}
          />
          {directions.length > 0 && (
            <SelectField
              label="Direction"
              value={direction || directions[0]!}
              onValue={setDirection}
              options={directions}
            />
          )}
          <TextField label="Pickup time" type="datetime-local" value={pickup} onValue={setPickup} required />
          <SelectField
            label="Vehicle type"
            value={vehicle}
            onValue={setVehicle}
            options={[["", "the policy's"], ...vehicles.map((v) => [v, v] as const)]}
          />
          <TextField
            label="Special requirements (comma separated)"
            value={requirements}
            onValue={setRequirements}
          />
        </ActionForm>
      )}

      {segments.length > 0 && (
        <>
          <DataTable
            rows={segments}
            columns={SEGMENT_COLUMNS}
            rowKey={(s) => s.urn}
            caption="Transport segments"
          />
          <fieldset class="segment-changes">
            <legend>Change a segment</legend>
            <SelectField
              label="Segment"
              value={segmentUrn}
              onValue={setSelected}
              options={segments.map((s) => [s.urn, `${s.groupId} ${s.direction} (${s.status})`] as const)}
            />
            <TextField label="Reason for the change" value={reason} onValue={setReason} required />
            <TextField label="New pickup time" type="datetime-local" value={newTime} onValue={setNewTime} />
            <button
              type="button"
              disabled={state.pending !== null || !newTime}
              onClick={() => change("Retime", "retime", { scheduledAt: isoFromLocal(newTime) })}
            >
              Retime
            </button>
            {vehicles.length > 0 && (
              <SelectField
                label="New vehicle type"
                value={newVehicle || vehicles[0]!}
                onValue={setNewVehicle}
                options={vehicles}
              />
            )}
            <button
              type="button"
              disabled={state.pending !== null}
              onClick={() => change("Change vehicle", "vehicle", { vehicleType: newVehicle || vehicles[0] })}
            >
              Change vehicle
            </button>
            <button
              type="button"
              disabled={state.pending !== null}
              onClick={() => change("Cancel segment", "cancel", {})}
            >
              Cancel segment
            </button>
          </fieldset>
        </>
      )}
      <ActionOutcome state={state} />
    </section>
  );
}
