import type { CaseResolvedData } from "../src/domain/events/sub-case.js";
import { TERMINAL_SUB_CASE_STATUSES } from "../src/domain/sub-case.js";
import type { ActorContext } from "../src/runtime/actor-runtime.js";

export interface SettleCaseCommand {
  tenant: string;
  caseUrn: string;
  /** Every active sub-case of the case, as read from its actor after the caller's own change. */
  subCases: CaseResolvedData["subCases"];
  correlationUrn: string;
}

const RESOLVED = "resolved";

/**
 * Whether a case's sub-cases are all done (spec 3.3: case.resolved "fires when all sub-cases have
 * reached a terminal state"), one turn at a time per case (actor id = case id), so of the sagas
 * that end together exactly one publishes `case.resolved`, and only once for the case's lifetime.
 * Every saga run asks after its sub-case reached where it ends; the last to end finds all terminal.
 */
export class CaseResolutionActor {
  constructor(private readonly context: ActorContext) {}

  async settle(command: SettleCaseCommand): Promise<{ resolved: boolean; published: boolean }> {
    if (await this.context.state.get<CaseResolvedData>(RESOLVED)) return { resolved: true, published: false };
    const allTerminal =
      command.subCases.length > 0 &&
      command.subCases.every((s) => TERMINAL_SUB_CASE_STATUSES.includes(s.status));
    if (!allTerminal) return { resolved: false, published: false };
    const data: CaseResolvedData = {
      caseUrn: command.caseUrn,
      subCases: command.subCases,
      resolvedAt: new Date(this.context.clock.now()).toISOString(),
    };
    this.context.state.set(RESOLVED, data);
    this.context.emit({
      type: "case.resolved",
      tenant: command.tenant,
      caseUrn: command.caseUrn,
      correlationUrn: command.correlationUrn,
      data,
    });
    return { resolved: true, published: true };
  }
}
