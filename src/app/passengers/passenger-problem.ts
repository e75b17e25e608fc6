import { randomUUID } from "node:crypto";
import { inject, injectable } from "tsyringe";
import { DomainError } from "../../domain/domain-error.js";
import type { ReviewItem } from "../../domain/review-item.js";
import type { Clock } from "../../runtime/clock.js";
import { TOKENS } from "../../runtime/tokens.js";
import { ReviewIntake } from "../manual-review/review-intake.js";
import type { PassengerPrincipal } from "../principals.js";
import { PassengerSnapshots } from "./passenger-snapshot.js";

/** The longest report a passenger may send: a few paragraphs, bounded so the queue stays readable. */
export const PROBLEM_TEXT_MAX_LENGTH = 2000;

/** Control characters but tab and line feed: invisible in the operators' views, or worse. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: they are what is removed.
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

export interface ReportedProblem {
  reviewItemUrn: string;
  state: ReviewItem["state"];
  createdAt: string;
}

/**
 * `POST /v1/me/problem` (spec 4.4: "routed to the operator manual-review queue"): the passenger's
 * text becomes a PASSENGER_REPORTED review item of the group. The text is kept as written (control
 * characters removed, trimmed, at most PROBLEM_TEXT_MAX_LENGTH characters); it is data, and every
 * view that shows it escapes it (JSON here; no HTML page shows review items).
 */
@injectable()
export class PassengerProblems {
  constructor(
    @inject(PassengerSnapshots) private readonly snapshots: PassengerSnapshots,
    @inject(ReviewIntake) private readonly intake: ReviewIntake,
    @inject(TOKENS.clock) private readonly clock: Clock,
  ) {}

  async report(session: PassengerPrincipal, text: string, correlationUrn: string): Promise<ReportedProblem> {
    const cleaned = text.replace(CONTROL_CHARACTERS, "").trim();
    if (cleaned === "") {
      throw new DomainError("invalid", "problem-text-empty", "Describe the problem in a few words");
    }
    const { subCase } = await this.snapshots.of(session);
    const item = await this.intake.openPassengerReport({
      tenant: subCase.tenant,
      caseUrn: subCase.caseUrn,
      airport: subCase.airport,
      groupId: session.groupId,
      text: cleaned,
      // Each report is its own item; a retry with the same Idempotency-Key is answered by the
      // HTTP layer with the first report's response and reaches no use case.
      reportId: randomUUID(),
      raisedAt: new Date(this.clock.now()).toISOString(),
      correlationUrn,
    });
    return { reviewItemUrn: item.urn, state: item.state, createdAt: item.createdAt };
  }
}
