import { useEffect, useState } from "preact/hooks";
import { api, segment } from "../api.js";
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
  const [cards, setCards] = useState<WalletCard[] | null>(null);
  const [issuance, setIssuance] = useState<{ status: string; vendorErrorCode: string | null } | null>(null);
  const [reason, setReason] = useState("");
  const [generation, setGeneration] = useState(0);
  const canResume = may(operator, "wallet.resume");

  useEffect(() => {
    api<{ items: WalletCard[] }>("GET", `/v1/wallet/cases/${segment(caseUrn)}/cards`)
      .then((answer) => setCards(answer.items))
      .catch((error: unknown) => state.fail(error));
    if (canResume) {
      api<{ status: string; vendorErrorCode: string | null }>("GET", "/v1/wallet/issuance")
        .then(setIssuance)
        .catch((error: unknown) => state.fail(error));
    }
  }, [caseUrn, generation, canResume]);

  const act = async (name: string, call: () => Promise<unknown>) => {
    if ((await state.run(name, call)) !== undefined) setGeneration((g) => g + 1);
  };
  const chosen = reason || reasons[0] || "";
  const canCancel = may(operator, "wallet.cancel");

  return (
    <section class="wallet-actions" aria-label="Meal cards">
      {issuance && (
        <p>
          Card issuance: <strong>{issuance.status}</strong>
          {issuance.vendorErrorCode ? ` (issuer answered ${issuance.vendorErrorCode})` : ""}{" "}
          {issuance.status === "PAUSED" && (
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
      {cards && cards.length === 0 && <p>No meal card issued to this case.</p>}
      {cards && cards.length > 0 && (
        <>
          {canCancel && reasons.length > 0 && (
            <SelectField label="Cancellation reason" value={chosen} onValue={setReason} options={reasons} />
          )}
          <table>
            <caption>Meal cards</caption>
            <thead>
              <tr>
                <th scope="col">Group</th>
                <th scope="col">Status</th>
                <th scope="col">Initial</th>
                <th scope="col">Settled</th>
                <th scope="col">Available</th>
                {canCancel && <th scope="col">Action</th>}
              </tr>
            </thead>
            <tbody>
              {cards.map((card) => (
                <tr key={card.cardUrn}>
                  <td>{card.groupId}</td>
                  <td>
                    {card.status}
                    {card.cancelReason ? ` (${card.cancelReason})` : ""}
                  </td>
                  <td>{formatMoney({ amountMinor: card.initialBalance, currency: card.currency })}</td>
                  <td>{formatMoney({ amountMinor: card.currentBalance, currency: card.currency })}</td>
                  <td>{formatMoney({ amountMinor: card.availableBalance, currency: card.currency })}</td>
                  {canCancel && (
                    <td>
                      {card.status !== "CANCELLED" && (
                        <button
                          type="button"
                          disabled={state.pending !== null}
                          aria-label={`Cancel card of group ${card.groupId}`}
                          onClick={() =>
                            act("Cancel card", () =>
                              api("POST", `/v1/wallet/cards/${segment(card.cardUrn)}/cancel`, {
                                reason: chosen,
                              }),
                            )
                          }
                        >
                          Cancel card
                        </button>
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      <ActionOutcome state={state} />
    </section>
  );
}
