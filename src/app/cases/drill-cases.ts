import { inject, injectable } from "tsyringe";
import type { DocumentCollection, DocumentStore } from "../../runtime/document-store.js";
import { TOKENS } from "../../runtime/tokens.js";

export const DRILL_CASES_COLLECTION = "drill-cases";

/** How many answers `isDrill` remembers; a case is a drill or not for life, so any answer stays true. */
const REMEMBERED = 10_000;

/**
 * Which cases are drills (spec 4.2 "Run a drill"). Written before the drill's case is opened, so
 * every event the case ever emits finds it here: the webhook fan-out asks per event, and events
 * carry the case URN, not the case.
 */
@injectable()
export class DrillCases {
  private readonly collection: DocumentCollection<{ _id: string; tenant: string; markedAt: string }>;
  private readonly known = new Map<string, boolean>();

  constructor(@inject(TOKENS.documents) documents: DocumentStore) {
    this.collection = documents.collection(DRILL_CASES_COLLECTION);
  }

  async mark(tenant: string, caseUrn: string, at: string): Promise<void> {
    await this.collection.put({ _id: caseUrn, tenant, markedAt: at });
    this.remember(caseUrn, true);
  }

  async isDrill(caseUrn: string): Promise<boolean> {
    const known = this.known.get(caseUrn);
    if (known !== undefined) return known;
    const drill = (await this.collection.get(caseUrn)) !== undefined;
    this.remember(caseUrn, drill);
    return drill;
  }

  private remember(caseUrn: string, drill: boolean): void {
    if (this.known.size >= REMEMBERED) this.known.delete(this.known.keys().next().value!);
    this.known.set(caseUrn, drill);
  }
}
