import type { SubCaseView } from "../../domain/events/sub-case.js";
import type { DocumentCollection, DocumentStore } from "../../runtime/document-store.js";
import { type RevisionedDoc, writeRevisioned } from "../revisioned-index.js";
import { inject, injectable } from "tsyringe";
import { TOKENS } from "../../runtime/tokens.js";

/**
 * One document per sub-case in the `sub-cases` collection: what the case manifest pages through
 * and how the locks of an operator are found when the operator's connection drops.
 * `retiredAt` is set (not the document deleted) when the group left the case, so a late copy of
 * an older revision cannot bring a retired sub-case back; manifests filter on `retiredAt: null`.
 * `lockedBy` may outlive an expired lock by the moment its expiry reminder takes to run:
 * readers that care compare `lockExpiresAt` with the time.
 */
export interface SubCaseIndexDoc extends RevisionedDoc {
  /** The sub-case URN. */
  _id: string;
  tenant: string;
  caseUrn: string;
  groupId: string;
  airport: string;
  status: string;
  version: number;
  lockedBy: string | null;
  lockExpiresAt: string | null;
  retiredAt: string | null;
  caseClosedAt: string | null;
  offer: SubCaseView["offer"];
  answer: SubCaseView["answer"];
  sagaInstanceId: string | null;
  vendorErrorCode: string | null;
  updatedAt: string;
}

export const SUB_CASE_COLLECTION = "sub-cases";

@injectable()
export class SubCaseIndex {
  private readonly collection: DocumentCollection<SubCaseIndexDoc>;

  constructor(@inject(TOKENS.documents) documents: DocumentStore) {
    this.collection = documents.collection<SubCaseIndexDoc>(SUB_CASE_COLLECTION);
  }

  async ensureIndexes(): Promise<void> {
    // A case's manifest: its sub-cases not retired, in group order.
    await this.collection.ensureIndex({ keys: { caseUrn: 1, retiredAt: 1, groupId: 1 } });
    await this.collection.ensureIndex({ keys: { tenant: 1, lockedBy: 1 } });
  }

  /** Copies actor views in; older revisions than the stored one are ignored. */
  async record(...views: SubCaseView[]): Promise<void> {
    await writeRevisioned(this.collection, views.map(toDoc));
  }

  /** Sub-cases of a case that are still part of it. */
  async activeOfCase(caseUrn: string): Promise<SubCaseIndexDoc[]> {
    return this.collection.findAll({ caseUrn, retiredAt: null }, { sort: { groupId: 1 } });
  }

  async countActiveOfCase(caseUrn: string): Promise<number> {
    return this.collection.count({ caseUrn, retiredAt: null });
  }

  /** Sub-cases whose lock names this operator (possibly expired a moment ago). */
  async lockedBy(tenant: string, operatorUrn: string): Promise<SubCaseIndexDoc[]> {
    return this.collection.findAll({ tenant, lockedBy: operatorUrn });
  }

  async get(subCaseUrn: string): Promise<SubCaseIndexDoc | undefined> {
    return this.collection.get(subCaseUrn);
  }
}

function toDoc(view: SubCaseView): SubCaseIndexDoc {
  return {
    _id: view.subCaseUrn,
    tenant: view.tenant,
    caseUrn: view.caseUrn,
    groupId: view.groupId,
    airport: view.airport,
    status: view.status,
    version: view.version,
    revision: view.revision,
    lockedBy: view.lockedBy,
    lockExpiresAt: view.lockExpiresAt,
    retiredAt: view.retiredAt,
    caseClosedAt: view.caseClosedAt,
    offer: view.offer,
    answer: view.answer,
    sagaInstanceId: view.sagaInstanceId,
    vendorErrorCode: view.vendorErrorCode,
    updatedAt: view.updatedAt,
  };
}
