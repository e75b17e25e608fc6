import { useState } from "preact/hooks";
import type { CaseDetail } from "../case-types.js";
import type { Operator } from "../session.js";
import { AllocationActions, CaseLifecycleActions, DemandActions } from "./case-actions.js";
import { CompensationPanel } from "./compensation.js";
import { SelectField } from "./fields.js";
import { may } from "./permissions.js";
import { ReviewItemPanel } from "./review-item-panel.js";
import { TransportActions } from "./transport-actions.js";
import { WalletActions } from "./wallet-actions.js";

/**
 * Everything an operator can do on a case from its detail screen, through the same routes (and so
 * the same audit trail) as the API: close and reopen, demand, allocation and booking, compensation
 * of a group's sub-case, the case's review items, ground transport and meal cards. Each panel shows
 * only what the operator's role may do; the API still decides, and its refusals are shown.
 */
export function CaseActionsSection({
  caseView,
  operator,
  onChanged,
}: {
  caseView: CaseDetail;
  operator: Operator | null;
  onChanged: () => void;
}) {
  const groups = caseView.passengerGroups;
  const [subCaseUrn, setSubCaseUrn] = useState("");
  const [itemUrn, setItemUrn] = useState<string | null>(null);
  const chosenSubCase = subCaseUrn || groups[0]?.subCaseUrn || "";
  const items = (caseView.manualReviewItems ?? []).filter((i): i is typeof i & { urn: string } => !!i.urn);

  return (
    <section aria-labelledby="case-actions" class="case-actions">
      <h2 id="case-actions">Actions</h2>
      {!may(operator, "case.close") && <p>Your role reads this case; it takes no action on it.</p>}
      {may(operator, "case.close") && (
        <>
          <h3>Case</h3>
          <CaseLifecycleActions caseView={caseView} operator={operator} onChanged={onChanged} />
          <h3>Demand</h3>
          <DemandActions caseView={caseView} operator={operator} onChanged={onChanged} />
        </>
      )}
      {may(operator, "case.allocate") && (
        <>
          <h3>Allocation and booking</h3>
          <AllocationActions caseView={caseView} operator={operator} onChanged={onChanged} />
        </>
      )}

      {groups.length > 0 && may(operator, "subcase.compensate") && (
        <>
          <h3>Compensation</h3>
          <SelectField
            label="Group to compensate"
            value={chosenSubCase}
            onValue={setSubCaseUrn}
            options={groups.map((g) => [g.subCaseUrn, `${g.id} (${g.operationalStatus})`] as const)}
          />
          <CompensationPanel
            key={chosenSubCase}
            subCaseUrn={chosenSubCase}
            operator={operator}
            onChanged={onChanged}
          />
        </>
      )}

      {items.length > 0 && (
        <>
          <h3>Review items</h3>
          <ul>
            {items.map((item) => (
              <li key={item.urn}>
                <button type="button" class="link" onClick={() => setItemUrn(item.urn)}>
                  Work on {item.category ?? "item"} ({item.state ?? "?"})
                </button>
              </li>
            ))}
          </ul>
          {itemUrn && (
            <ReviewItemPanel key={itemUrn} urn={itemUrn} operator={operator} onChanged={onChanged} />
          )}
        </>
      )}

      {may(operator, "transport.change") && (
        <>
          <h3>Ground transport</h3>
          <TransportActions caseView={caseView} operator={operator} />
        </>
      )}
      <h3>Meal cards</h3>
      <WalletActions caseUrn={caseView.urn} operator={operator} />
    </section>
  );
}
