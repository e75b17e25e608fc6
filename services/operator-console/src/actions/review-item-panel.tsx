import { useState } from "preact/hooks";
import { api, segment } from "../api.js";
import type { Operator } from "../session.js";
import { formatTime } from "../format.js";
import { AgentProposals } from "./agent-proposals.js";
import { ActionForm, ActionOutcome, SelectField, TextArea, TextField } from "./fields.js";
import { partsOf, typedValue } from "./form-values.js";
import { schemaAt, useOperationInput } from "./openapi.js";
import { may } from "./permissions.js";
import { DataTable } from "../components/data-table.js";
import { ProblemMessage } from "../components/problem-message.js";
import { useResource } from "../components/use-resource.js";
import { useAction } from "./use-action.js";

/** A manual-review item as the API answers it (spec 2.5; the queue's own members beside). */
export interface ReviewItem {
  urn: string;
  caseUrn: string;
  airport: string;
  category: string;
  priority: string;
  state: string;
  assignedTo: string | null;
  reason: string;
  affectedGroups: string[];
  attemptedHotels: { hotelUrn: string; reason: string; providerError?: string }[];
  recommendations: { action: string; hotelUrn?: string; fields?: Record<string, unknown>; reason: string }[];
  slaDueAt: string | null;
  rebooking?: {
    kind: string;
    hotelUrn: string;
    groups: { groupId: string; status: string; vendorErrorCode?: string }[];
  } | null;
  relaxations?: { fields: Record<string, unknown>; reason: string; by: string }[];
  resolution?: { resolution: string; reason: string; by: string; at: string } | null;
}

/**
 * One review item (spec 2.5, 3.5, 4.2): what it is about, and its actions (claim, escalate,
 * rebook, override, relax, split, resolve) with the exception agent's proposals beside. The
 * field-manual routes serve the airport operator's actions; the API refuses what a role may not do.
 */
export function ReviewItemPanel({
  urn,
  operator,
  onChanged,
}: {
  urn: string;
  operator: Operator | null;
  onChanged?: () => void;
}) {
  const read = useResource<ReviewItem>(`/v1/booking/manual-review/${segment(urn)}`);
  const [reason, setReason] = useState("");
  const [hotelUrn, setHotelUrn] = useState("");
  const [offerId, setOfferId] = useState("");
  const [relaxField, setRelaxField] = useState("");
  const [relaxValue, setRelaxValue] = useState("");
  const [parts, setParts] = useState("");
  const [resolution, setResolution] = useState("REBOOKED");
  const state = useAction();
  const relaxInput = useOperationInput("relaxPolicyForManualReviewItem");
  const relaxFields = Object.keys(schemaAt(relaxInput?.body, ["fields"])?.properties ?? {});

  const item = read.data;
  if (!item) return read.error ? <ProblemMessage error={read.error} /> : <p role="status">Loading {urn}…</p>;

  const path = (verb: string) => `/manual-review/${segment(item.urn)}/${verb}`;
  const act = async (name: string, call: () => Promise<unknown>) => {
    if ((await state.run(name, call)) === undefined) return;
    setReason("");
    read.reload();
    onChanged?.();
  };
  const open = item.state !== "RESOLVED";
  const field = relaxField || relaxFields[0] || "";

  return (
    <article class="review-item" aria-labelledby={`item-${item.urn}`}>
      <h2 id={`item-${item.urn}`}>
        {item.category} <span class="badge">{item.priority}</span> <span class="badge">{item.state}</span>
      </h2>
      <dl class="facts">
        <dt>Item</dt>
        <dd>
          <code>{item.urn}</code>
        </dd>
        <dt>Case</dt>
        <dd>
          <code>{item.caseUrn}</code> ({item.airport})
        </dd>
        <dt>Why</dt>
        <dd>{item.reason}</dd>
        <dt>Groups</dt>
        <dd>{item.affectedGroups.join(", ") || "none"}</dd>
        <dt>Assigned to</dt>
        <dd>{item.assignedTo ?? "nobody"}</dd>
        <dt>SLA due</dt>
        <dd>{formatTime(item.slaDueAt)}</dd>
        {item.rebooking && (
          <>
            <dt>Rebooking</dt>
            <dd>
              {item.rebooking.kind} on {item.rebooking.hotelUrn}:{" "}
              {item.rebooking.groups
                .map((g) => `${g.groupId} ${g.status}${g.vendorErrorCode ? ` (${g.vendorErrorCode})` : ""}`)
                .join(", ")}
            </dd>
          </>
        )}
        {(item.relaxations ?? []).length > 0 && (
          <>
            <dt>Relaxed for this case</dt>
            <dd>
              {item.relaxations!.map((r) => `${JSON.stringify(r.fields)} by ${r.by}: ${r.reason}`).join("; ")}
            </dd>
          </>
        )}
        {item.resolution && (
          <>
            <dt>Resolution</dt>
            <dd>
              {item.resolution.resolution} by {item.resolution.by}: {item.resolution.reason}
            </dd>
          </>
        )}
      </dl>
      {item.attemptedHotels.length > 0 && (
        <DataTable
          rows={item.attemptedHotels}
          columns={[
            { header: "Hotel tried", cell: (h: ReviewItem["attemptedHotels"][number]) => h.hotelUrn },
            { header: "Reason", cell: (h) => h.reason },
            { header: "Vendor error", cell: (h) => h.providerError ?? "" },
          ]}
          rowKey={(h) => `${h.hotelUrn}-${h.reason}`}
          caption="Hotels tried"
        />
      )}

      {open && may(operator, "agent.decide") && <AgentProposals itemUrn={item.urn} onApplied={read.reload} />}

      {open && (
        <div class="review-actions">
          <h3>Actions</h3>
          <TextField label="Reason" value={reason} onValue={setReason} />
          <div class="buttons">
            {may(operator, "review.claim") && (
              <button
                type="button"
                disabled={state.pending !== null}
                onClick={() => act("Claim", () => api("POST", path("claim")))}
              >
                Claim
              </button>
            )}
            {may(operator, "review.escalate") && (
              <button
                type="button"
                disabled={state.pending !== null || !reason.trim()}
                onClick={() =>
                  act("Escalate", () =>
                    api("POST", `/v1/booking/manual-review/${segment(item.urn)}/escalate`, { reason }),
                  )
                }
              >
                Escalate
              </button>
            )}
          </div>
          {may(operator, "review.rebook") && (
            <ActionForm
              legend="Rebook the item's groups on a hotel"
              action="Rebook"
              state={state}
              onSubmit={() => act("Rebook", () => api("POST", path("rebook"), { hotelUrn, reason }))}
            >
              <TextField label="Hotel URN" value={hotelUrn} onValue={setHotelUrn} required />
            </ActionForm>
          )}
          {may(operator, "review.override") && (
            <ActionForm
              legend="Book the groups on one offer of a hotel"
              action="Override"
              state={state}
              onSubmit={() =>
                act("Override", () =>
                  api("POST", path("override"), { hotelUrn, providerOfferId: offerId, reason }),
                )
              }
            >
              <TextField label="Hotel URN for the override" value={hotelUrn} onValue={setHotelUrn} required />
              <TextField label="Provider offer id" value={offerId} onValue={setOfferId} required />
            </ActionForm>
          )}
          {may(operator, "review.relax") && (
            <ActionForm
              legend="Relax the policy for this case only"
              action="Relax"
              state={state}
              onSubmit={() =>
                act("Relax", () =>
                  api("POST", path("relax"), { fields: { [field]: typedValue(relaxValue) }, reason }),
                )
              }
            >
              {relaxFields.length > 0 ? (
                <SelectField label="Constraint" value={field} onValue={setRelaxField} options={relaxFields} />
              ) : (
                <TextField label="Constraint" value={relaxField} onValue={setRelaxField} required />
              )}
              <TextField
                label="New value (JSON; null removes it)"
                value={relaxValue}
                onValue={setRelaxValue}
                required
              />
            </ActionForm>
          )}
          {may(operator, "review.split") && (
            <ActionForm
              legend="Split a group of the item"
              action="Split"
              state={state}
              onSubmit={() =>
                act("Split", () => api("POST", path("split"), { into: partsOf(parts), reason }))
              }
            >
              <TextArea
                label="Parts: one line per part, passenger ids separated by commas"
                value={parts}
                onValue={setParts}
                required
              />
            </ActionForm>
          )}
          {may(operator, "review.resolve") && (
            <ActionForm
              legend="Resolve the item"
              action="Resolve"
              state={state}
              onSubmit={() => act("Resolve", () => api("POST", path("resolve"), { resolution, reason }))}
            >
              <TextField label="Resolution" value={resolution} onValue={setResolution} required />
            </ActionForm>
          )}
          <ActionOutcome state={state} />
        </div>
      )}
    </article>
  );
}
