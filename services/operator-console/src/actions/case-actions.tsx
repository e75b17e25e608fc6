import { useEffect, useState } from "preact/hooks";
import { api, segment } from "../api.js";
import type { CaseDetail, Page } from "../case-types.js";
import type { Operator } from "../session.js";
import { ActionForm, ActionOutcome, SelectField, TextField } from "./fields.js";
import { enumAt, useOperationInput } from "./openapi.js";
import { may } from "./permissions.js";
import { type ActionState, useAction } from "./use-action.js";

interface Demand {
  urn: string;
  caseUrn: string;
  type: string;
  roomsRequested: number;
  state: string;
}

interface PanelProps {
  caseView: CaseDetail;
  operator: Operator | null;
  /** Called after an action went through: the case detail reads the case again. */
  onChanged: () => void;
}

/** Runs an action, then tells the case detail to read the case again. */
function changing(state: ActionState, onChanged: () => void) {
  return async <T,>(name: string, call: () => Promise<T>): Promise<T | undefined> => {
    const result = await state.run(name, call);
    if (result !== undefined) onChanged();
    return result;
  };
}

/**
 * Close (reason required, AIRPORT_OPERATOR and above) and reopen (ADMIN), spec 3.3. A closed case
 * accepts no other change; the API answers 409 case-closed, shown like any refusal.
 */
export function CaseLifecycleActions({ caseView, operator, onChanged }: PanelProps) {
  const state = useAction();
  const act = changing(state, onChanged);
  const [reason, setReason] = useState("");
  const path = (verb: string) => `/v1/cases/${segment(caseView.urn)}/${verb}`;
  const closed = caseView.status === "CLOSED";
  return (
    <section class="case-lifecycle" aria-label="Close or reopen the case">
      {!closed && may(operator, "case.close") && (
        <ActionForm
          legend="Close the case"
          action="Close case"
          state={state}
          onSubmit={() => act("Close case", () => api("POST", path("close"), { reason }))}
        >
          <TextField label="Reason for closing" value={reason} onValue={setReason} required />
        </ActionForm>
      )}
      {closed && may(operator, "case.reopen") && (
        <ActionForm
          legend="Reopen the case"
          action="Reopen case"
          state={state}
          onSubmit={() =>
            act("Reopen case", () => api("POST", path("reopen"), reason.trim() ? { reason } : {}))
          }
        >
          <TextField label="Reason for reopening" value={reason} onValue={setReason} />
        </ActionForm>
      )}
      <ActionOutcome state={state} />
    </section>
  );
}

/**
 * Demand (spec 2.3, 3.1): request rooms (INITIAL or INCREMENTAL), and the case's demand waiting for
 * a supervisor, with approve and reject (reason required).
 */
export function DemandActions({ caseView, operator, onChanged }: PanelProps) {
  const state = useAction();
  const act = changing(state, onChanged);
  const input = useOperationInput("requestDemand");
  const types = enumAt(input?.body, ["type"]);
  const [type, setType] = useState("");
  const [rooms, setRooms] = useState("1");
  const [reason, setReason] = useState("");
  const [pending, setPending] = useState<Demand[]>([]);
  const [generation, setGeneration] = useState(0);
  const canDecide = may(operator, "demand.decide");

  useEffect(() => {
    if (!canDecide) return;
    // The approval queue is the airline's; this case's share of its first pages is shown here.
    const mine: Demand[] = [];
    const read = async (cursor: string | null, pages: number): Promise<void> => {
      const page = await api<Page<Demand>>(
        "GET",
        `/v1/demand/pending/approvals?limit=200${cursor ? `&cursor=${segment(cursor)}` : ""}`,
      );
      mine.push(...page.items.filter((d) => d.caseUrn === caseView.urn));
      if (page.hasMore && page.nextCursor && pages > 1) await read(page.nextCursor, pages - 1);
    };
    read(null, 5)
      .then(() => setPending(mine))
      .catch((error: unknown) => state.fail(error));
  }, [caseView.urn, canDecide, generation]);

  const decide = async (demand: Demand, verb: "approve" | "reject") => {
    const name = verb === "approve" ? "Approve demand" : "Reject demand";
    await act(name, () => api("POST", `/v1/demand/${segment(demand.urn)}/${verb}`, { reason }));
    setGeneration((g) => g + 1);
  };
  const chosenType = type || types[0] || "INITIAL";

  return (
    <section class="demand-actions" aria-label="Demand">
      {may(operator, "demand.request") && (
        <ActionForm
          legend="Request rooms"
          action="Create demand"
          state={state}
          onSubmit={async () => {
            await act("Create demand", () =>
              api("POST", `/v1/demand/case/${segment(caseView.urn)}`, {
                type: chosenType,
                roomsRequested: Number(rooms),
              }),
            );
            setGeneration((g) => g + 1);
          }}
        >
          {types.length > 0 && (
            <SelectField label="Demand type" value={chosenType} onValue={setType} options={types} />
          )}
          <TextField label="Rooms requested" type="number" value={rooms} onValue={setRooms} required />
        </ActionForm>
      )}
      {canDecide && pending.length > 0 && (
        <div class="pending-demand">
          <TextField label="Reason for the decision" value={reason} onValue={setReason} />
          <ul>
            {pending.map((demand) => (
              <li key={demand.urn}>
                {demand.type} demand for {demand.roomsRequested} rooms ({demand.state}){" "}
                <button
                  type="button"
                  disabled={state.pending !== null}
                  onClick={() => decide(demand, "approve")}
                >
                  Approve demand
                </button>{" "}
                <button
                  type="button"
                  disabled={state.pending !== null}
                  onClick={() => decide(demand, "reject")}
                >
                  Reject demand
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
      <ActionOutcome state={state} />
    </section>
  );
}

/**
 * Allocation and booking (spec 2.6, 4.1, 4.2; OPS_SUPERVISOR and above): allocate, book the latest
 * wave's rooms, run the wave again, move one group to another hotel the wave considered.
 */
export function AllocationActions({ caseView, operator, onChanged }: PanelProps) {
  const state = useAction();
  const act = changing(state, onChanged);
  const [reason, setReason] = useState("");
  const [groupId, setGroupId] = useState("");
  const [hotelUrn, setHotelUrn] = useState("");
  const [partial, setPartial] = useState<string | null>(null);
  const waveUrn = caseView.wave?.urn;
  const group = groupId || caseView.passengerGroups[0]?.id || "";

  const allocate = async () => {
    setPartial(null);
    const answer = await act("Allocate", () =>
      api<{ partialFailures: { domain: string; reason?: string }[] }>(
        "POST",
        `/v1/cases/${segment(caseView.urn)}/allocate`,
      ),
    );
    // A composition route answers what it could; the domains that failed are named (spec 4.1).
    if (answer && answer.partialFailures.length > 0) {
      setPartial(
        `Partly done; no answer from ${answer.partialFailures.map((f) => f.domain + (f.reason ? ` (${f.reason})` : "")).join(", ")}`,
      );
    }
  };
  if (!may(operator, "case.allocate")) return null;
  return (
    <section class="allocation-actions" aria-label="Allocation and booking">
      <div class="buttons">
        <button type="button" disabled={state.pending !== null} onClick={allocate}>
          Allocate
        </button>
        <button
          type="button"
          disabled={state.pending !== null}
          onClick={() =>
            act("Book rooms", () => api("POST", `/v1/cases/${segment(caseView.urn)}/book-rooms`))
          }
        >
          Book rooms
        </button>
      </div>
      {partial && <p role="alert">{partial}</p>}
      {waveUrn && (
        <>
          <TextField label="Reason for the wave change" value={reason} onValue={setReason} />
          <button
            type="button"
            disabled={state.pending !== null}
            onClick={() =>
              act("Rerun wave", () =>
                api("POST", `/v1/allocation/wave/${segment(waveUrn)}/rerun`, reason.trim() ? { reason } : {}),
              )
            }
          >
            Rerun wave
          </button>
          <ActionForm
            legend="Move one group to another hotel"
            action="Override allocation"
            state={state}
            onSubmit={() =>
              act("Override allocation", () =>
                api("POST", `/v1/allocation/wave/${segment(waveUrn)}/override`, {
                  groupId: group,
                  hotelUrn,
                  reason,
                }),
              )
            }
          >
            <SelectField
              label="Group"
              value={group}
              onValue={setGroupId}
              options={caseView.passengerGroups.map((g) => g.id)}
            />
            <TextField label="Hotel URN for the group" value={hotelUrn} onValue={setHotelUrn} required />
          </ActionForm>
        </>
      )}
      <ActionOutcome state={state} />
    </section>
  );
}
