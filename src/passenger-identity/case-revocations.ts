/**
 * Spec 5.2: all passenger tokens of a case are revoked when the case reaches CLOSED. Tokens are not
 * stored, so the revocation is a durable record per case that every token check reads:
 * - while the case is closed, any token of it is refused with 403 `case-closed` (part 7: "passenger
 *   token of a closed case"), even one that is otherwise valid;
 * - after an ADMIN reopens the case, tokens issued up to the close stay refused, now with 401
 *   `invalid_token` (a revoked session: the passenger logs in again); later ones are accepted.
 * Token times are whole seconds, so a token issued in the very second of the close counts as
 * issued before it.
 */
import type { CaseTokenRevocations } from "../app/cases/passenger-sign-in.js";
import { ForbiddenError, UnauthorizedError } from "../http/errors.js";
import type { Doc, DocumentStore } from "../runtime/document-store.js";

export const CASE_REVOCATIONS_COLLECTION = "passenger-case-revocations";

export interface CaseRevocation extends Doc {
  /** The case URN. */
  _id: string;
  /** ISO 8601 UTC of the latest close. */
  revokedAt: string;
  caseClosed: boolean;
}

export class CaseRevocations implements CaseTokenRevocations {
  constructor(private readonly store: DocumentStore) {}

  private get records() {
    return this.store.collection<CaseRevocation>(CASE_REVOCATIONS_COLLECTION);
  }

  /** The case closed at `at`: its tokens issued so far end now. */
  async revokeCase(caseUrn: string, at: Date): Promise<void> {
    await this.records.put({ _id: caseUrn, revokedAt: at.toISOString(), caseClosed: true });
  }

  /** The case is open again: new tokens may be issued; those of before the close stay revoked. */
  async caseReopened(caseUrn: string): Promise<void> {
    await this.records.updateOne({ _id: caseUrn }, { $set: { caseClosed: false } });
  }

  async isClosed(caseUrn: string): Promise<boolean> {
    return (await this.records.get(caseUrn))?.caseClosed === true;
  }

  /** Throws 403 `case-closed` or 401 `invalid_token` for a token of `caseUrn` issued at `issuedAtSeconds`. */
  async assertTokenAlive(caseUrn: string, issuedAtSeconds: number): Promise<void> {
    const revocation = await this.records.get(caseUrn);
    if (!revocation) return;
    if (revocation.caseClosed) throw caseClosed();
    if (issuedAtSeconds <= Math.floor(Date.parse(revocation.revokedAt) / 1000)) {
      throw new UnauthorizedError(
        "invalid_token",
        "The session was revoked when its case closed; log in again",
      );
    }
  }
}

export function caseClosed(): ForbiddenError {
  return new ForbiddenError("case-closed", "The case of this passenger is closed");
}
