import type { DemandLedger } from "../../../actors/DemandActor.js";
import type { Demand } from "../../domain/demand.js";
import type { DocumentCollection, DocumentStore, FindOptions, Page } from "../../runtime/document-store.js";
import { indexedCollection } from "../indexed-collection.js";
import { type RevisionedDoc, writeRevisioned } from "../revisioned-index.js";
import { inject, injectable } from "tsyringe";
import { TOKENS } from "../../runtime/tokens.js";

export const DEMANDS_COLLECTION = "demands";

/** One document per demand, with the tenant and airport of its case for queues and dashboards. */
export interface DemandDocument extends Demand, RevisionedDoc {
  tenant: string;
  airport: string;
}

/**
 * The queryable copy of every DemandActor (the `demands` collection): the approval queue and the
 * dashboard read it. The actors stay the authority; each change is copied here as its turn returns.
 */
@injectable()
export class DemandIndex {
  private readonly documents: DocumentCollection<DemandDocument>;

  constructor(@inject(TOKENS.documents) store: DocumentStore) {
    this.documents = indexedCollection(store, DEMANDS_COLLECTION, [
      { keys: { tenant: 1, state: 1, requestedAt: 1 } },
      { keys: { tenant: 1, caseUrn: 1 } },
    ]);
  }

  async record(ledger: DemandLedger): Promise<void> {
    await writeRevisioned(
      this.documents,
      ledger.demands.map((demand) => ({
        ...demand,
        _id: demand.urn,
        tenant: ledger.tenant,
        airport: ledger.airport,
        revision: ledger.revision,
      })),
    );
  }

  /** REQUESTED demand waiting for a supervisor, oldest first. */
  async pendingPage(tenant: string, airport: string | undefined, page: FindOptions): Promise<Page<Demand>> {
    const found = await this.documents.find(
      { tenant, state: "REQUESTED", ...(airport ? { airport } : {}) },
      { ...page, sort: { requestedAt: 1 } },
    );
    return { ...found, items: found.items.map(toDemand) };
  }
}

export function toDemand({ _id, tenant, airport, revision, ...demand }: DemandDocument): Demand {
  return demand;
}
