import type { PolicyConstraints } from "../../domain/policy/policy.js";
import type { Clock } from "../../runtime/clock.js";
import { type Doc, type DocumentCollection, type DocumentStore } from "../../runtime/document-store.js";
import { inject, injectable } from "tsyringe";
import { TOKENS } from "../../runtime/tokens.js";

/** Collection of per-case policy relaxations (field-manual `relax`, spec 4.2). */
export const POLICY_OVERRIDES_COLLECTION = "policy-overrides";

/**
 * Constraint fields with their new values, as the policy patch body writes them
 * (`policyPatchSchema.properties.constraints`): null removes a constraint for the case.
 */
export type ConstraintOverride = { [K in keyof PolicyConstraints]?: PolicyConstraints[K] | null };

/**
 * One document per case (`_id` = case URN): `fields` is every relaxation of the case merged, later
 * ones winning, so allocation applies this one object on top of the resolved policy's constraints
 * (`applyOverride`). `by`, `reason` and `at` are the latest relaxation's; `history` keeps them all.
 */
export interface PolicyOverrideDocument extends Doc {
  tenant: string;
  caseUrn: string;
  fields: ConstraintOverride;
  by: string;
  reason: string;
  at: string;
  history: { fields: ConstraintOverride; by: string; reason: string; at: string; reviewItemUrn: string }[];
}

/** The constraints allocation gates a case with: the policy's, with the case's override on top. */
export function applyOverride<C extends Partial<PolicyConstraints>>(
  constraints: C,
  fields: ConstraintOverride | undefined,
): C {
  const result: Record<string, unknown> = { ...constraints };
  for (const [name, value] of Object.entries(fields ?? {})) {
    if (value === null) delete result[name];
    else if (value !== undefined) result[name] = value;
  }
  return result as C;
}

@injectable()
export class PolicyOverrides {
  private readonly documents: DocumentCollection<PolicyOverrideDocument>;

  constructor(
    @inject(TOKENS.documents) store: DocumentStore,
    @inject(TOKENS.clock) private readonly clock: Clock,
  ) {
    this.documents = store.collection<PolicyOverrideDocument>(POLICY_OVERRIDES_COLLECTION);
  }

  async of(tenant: string, caseUrn: string): Promise<PolicyOverrideDocument | undefined> {
    return this.documents.findOne({ _id: caseUrn, tenant });
  }

  async relax(relaxation: {
    tenant: string;
    caseUrn: string;
    fields: ConstraintOverride;
    by: string;
    reason: string;
    reviewItemUrn: string;
  }): Promise<PolicyOverrideDocument> {
    const at = new Date(this.clock.now()).toISOString();
    const { tenant, caseUrn, fields, by, reviewItemUrn } = relaxation;
    const reason = relaxation.reason.trim();
    const entry = { fields, by, reason, at, reviewItemUrn };
    // Field by field and in one update, so two relaxations of the same case at once both land.
    const fieldUpdates = Object.fromEntries(
      Object.entries(fields).map(([name, value]) => [`fields.${name}`, value]),
    );
    const created = await this.documents.insertIfAbsent({
      _id: caseUrn,
      tenant,
      caseUrn,
      fields,
      by,
      reason,
      at,
      history: [entry],
    });
    if (!created) {
      await this.documents.updateOne(
        { _id: caseUrn, tenant },
        { $set: { ...fieldUpdates, by, reason, at }, $push: { history: entry } },
      );
    }
    const document = await this.of(tenant, caseUrn);
    if (!document) throw new Error(`The policy override of ${caseUrn} vanished while being written`);
    return document;
  }
}
