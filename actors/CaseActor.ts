import { type CaseRecord, type OpenCaseCommand, openCase, passengerCount } from "../src/domain/case.js";
import { DomainError } from "../src/domain/domain-error.js";
import type { ActorContext } from "../src/runtime/actor-runtime.js";

export interface OpenCaseResult {
  case: CaseRecord;
  /** False when this was a replay of an already opened disruption. */
  created: boolean;
}

/** One case per actor; the actor id is the case id (see `caseIdFor`). */
export class CaseActor {
  constructor(private readonly context: ActorContext) {}

  async open(command: OpenCaseCommand): Promise<OpenCaseResult> {
    const existing = await this.context.state.get<CaseRecord>("case");
    if (existing) {
      if (existing.tenant !== command.tenant || existing.externalEventId !== command.externalEventId) {
        throw new DomainError(
          "conflict",
          "case-id-collision",
          `Case ${existing.urn} belongs to another disruption`,
        );
      }
      return { case: existing, created: false };
    }
    const record = openCase(command, new Date(this.context.clock.now()));
    this.context.state.set("case", record);
    this.context.emit({
      type: "case.opened",
      tenant: record.tenant,
      correlationUrn: command.correlationUrn,
      caseUrn: record.urn,
      data: {
        caseUrn: record.urn,
        status: record.status,
        externalEventId: record.externalEventId,
        flight: record.flight,
        groupCount: record.passengerGroups.length,
        passengerCount: passengerCount(record),
      },
    });
    return { case: record, created: true };
  }

  async get(): Promise<CaseRecord | undefined> {
    return this.context.state.get<CaseRecord>("case");
  }
}
