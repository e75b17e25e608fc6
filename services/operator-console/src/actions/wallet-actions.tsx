import { useState } from "preact/hooks";
import { api, segment } from "../api.js";
import { ProblemMessage } from "../components/problem-message.js";
import { type Column, DataTable } from "../components/data-table.js";
import { useResource } from "../components/use-resource.js";
import { formatMoney } from "../format.js";
import type { Operator } from "../session.js";
import { ActionOutcome, SelectField } from "./fields.js";
import { enumAt, useOperationInput } from "./openapi.js";
import { may } from "./permissions.js";
import { useAction } from "./use-action.js";

/** A wallet card as the API answers it (spec 2.7): balances in minor units. */
interface WalletCard {
  cardUrn: string;
  groupId: string;
  status: string;
  currency: string;
  initialBalance: number;
  currentBalance: number;
  availableBalance: number;
  cancelReason: string | null;
}

/**
 * The case's meal cards (spec 2.7, 3.6, 4.2): balances, and cancel (end of contingency, fraud,
 * lost; irreversible: a re-issue makes a new card). An admin also sees whether issuance is paused
 * by the issuer's refusal and resumes it (spec 7).
 */
export function WalletActions({ caseUrn, operator }: { caseUrn: string; operator: Operator | null }) {
  const state = useAction();
  const input = useOperationInput("cancelWalletCard");
  const reasons = enumAt(input?.body, ["reason"]);
  const [reason, setReason] = useState("");
  const canResume = may(operator, "wallet.resume");
  const cards = useResource<{ items: WalletCard[] }>(`/v1/wallet/cases/${segment(caseUrn)}/cards`);
  const issuance = useResource<{ status: string; vendorErrorCode: string | null }>(
    canResume ? "/v1/wallet/issuance" : undefined,
  );

  const act = async (name: string, call: () => Promise<unknown>) => {
    if ((await state.run(name, call)) === undefined) return;
    cards.reload();
    issuance.reload();
  };
  const chosen = reason || reasons[0] || "";
  const canCancel = may(operator, "wallet.cancel");

  const money = (card: WalletCard, amountMinor: number) =>
    formatMoney({ amountMinor, currency: card.currency });
  const columns: Column<WalletCard>[] = [
    { header: "Group", cell: (card) => card.groupId },
    {
      header: "Status",
      cell: (card) => `${card.status}${card.cancelReason ? ` (${card.cancelReason})` : ""}`,
    },
    { header: "Initial", cell: (card) => money(card, card.initialBalance) },
    { header: "Settled", cell: (card) => money(card, card.currentBalance) },
    { header: "Available", cell: (card) => money(card, card.availableBalance) },
  ];
  if (canCancel) {
    columns.push({
      header: "Action",
      cell: (card) =>
        card.status !== "CANCELLED" && (
          <button
            type="button"
            disabled={state.pending !== null}
            aria-label={`Cancel card of group ${card.groupId}`}
            onClick={() =>
              act("Cancel card", () =>
                api("POST", `/v1/wallet/cards/${segment(card.cardUrn)}/cancel`, { reason: chosen }),
              )
            }
          >
            Cancel card
          </button>
        ),
    });
  }
  const status = issuance.data;

  return (
    <section class="wallet-actions" aria-label="Meal cards">
      {status && (
        <p>
          Card issuance: <strong>{status.status}</strong>
          {status.vendorErrorCode ? ` (issuer answered ${status.vendorErrorCode})` : ""}{" "}
          {status.status === "PAUSED" && (
            <button
              type="button"
              disabled={state.pending !== null}
              onClick={() => act("Resume issuance", () => api("POST", "/v1/wallet/issuance/resume"))}
            >
              Resume issuance
            </button>
          )}
        </p>
      )}
      <ProblemMessage error={cards.error ?? issuance.error} />
      {canCancel && reasons.length > 0 && (cards.data?.items.length ?? 0) > 0 && (
        <SelectField label="Cancellation reason" value={chosen} onValue={setReason} options={reasons} />
      )}
      <DataTable
        rows={cards.data?.items}
        columns={columns}
        rowKey={(card) => card.cardUrn}
        caption="Meal cards"
        empty="No meal card issued to this case."
      />
      <ActionOutcome state={state} />
    </section>
  );
}
