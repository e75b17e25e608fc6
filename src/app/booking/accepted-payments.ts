import type { CaseRecord } from "../../domain/case.js";
import { POLICY_DEFAULTS, type PaymentMethod } from "../../domain/policy/policy.js";
import type { DocumentStore } from "../../runtime/document-store.js";
import { policyForCase } from "../cases/case-policy.js";
import { PolicyIndex } from "../policies/policy-index.js";
import { inject, injectable } from "tsyringe";
import { TOKENS } from "../../runtime/tokens.js";

/**
 * The payments a booking may offer (spec 2.4 acceptedPayments): those of the policy version the
 * wave was allocated under, else of the policy resolving for the case now, else the default.
 */
@injectable()
export class AcceptedPayments {
  private readonly index: PolicyIndex;

  constructor(@inject(TOKENS.documents) store: DocumentStore) {
    this.index = new PolicyIndex(store);
  }

  async of(
    policy: { policyUrn: string | null; policyVersion: number | null } | undefined,
    record: Pick<CaseRecord, "tenant" | "flight" | "passengerGroups">,
  ): Promise<PaymentMethod[]> {
    if (policy?.policyUrn) {
      const version = await this.index.versionOf(record.tenant, policy.policyUrn, policy.policyVersion);
      if (version) return version.constraints.acceptedPayments;
    }
    const current = await policyForCase(this.index, record);
    return current?.constraints.acceptedPayments ?? [...POLICY_DEFAULTS.acceptedPayments];
  }
}
