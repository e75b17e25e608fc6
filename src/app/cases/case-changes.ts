import {
  CaseActor,
  type CaseChangeResult,
  type CaseGroupView,
  type CaseSnapshot,
} from "../../../actors/CaseActor.js";
import { caseNotFound } from "../../domain/case.js";
import type { DeepReadonly } from "../../domain/deep-readonly.js";
import { caseIdOf } from "../../domain/demand-addresses.js";
import type { Principal } from "../principals.js";
import { assertCaseAccess } from "./case-access.js";
import type { ActorRuntime } from "../../runtime/actor-runtime.js";
import { type AuditLog, changeEntry } from "../audit-log.js";
import { CaseProjection } from "./case-projection.js";
import { inject, injectable } from "tsyringe";
import { TOKENS } from "../../runtime/tokens.js";

/**
 * A case URN in either form of spec 2 (`urn:case:<id>` or `urn:<namespace>:case:<id>`) as the case
 * actor's id and the canonical URN; 404 for anything else, since no such case can exist.
 */
export function caseRefOf(caseUrn: string): { id: string; urn: string } {
  const id = caseIdOf(caseUrn);
  if (id === undefined) throw caseNotFound(caseUrn);
  return { id, urn: `urn:case:${id}` };
}

export interface CaseChangeRequest<R extends DeepReadonly<CaseChangeResult>> {
  caseUrn: string;
  /** Who asks; absent for the platform's own flows (allocation, booking), which are trusted. */
  caller?: Principal;
  correlationUrn: string;
  /** Runs the actor command on the case actor with this id. */
  command(caseId: string): Promise<R>;
}

/**
 * The write path every case change takes: find the case, check the caller may touch it, run the
 * actor command, project the new snapshot (so the caller reads its own write), and append an audit
 * entry with the actor, reason and before/after the command reported (spec 3.3).
 */
@injectable()
export class CaseChanges {
  constructor(
    @inject(TOKENS.actors) private readonly actors: ActorRuntime,
    @inject(CaseProjection) private readonly projection: CaseProjection,
    @inject(TOKENS.audit) private readonly audit: AuditLog,
  ) {}

  /**
   * The case as its last committed change left it. A look, not a turn: a read does not wait behind
   * the changes queued for the case (a flight's bookings reporting in during a storm).
   */
  async snapshot(caseUrn: string, caller?: Principal): Promise<CaseSnapshot> {
    const { id } = caseRefOf(caseUrn);
    const snapshot = await this.actors.look(CaseActor, id, "snapshot");
    if (!snapshot) throw caseNotFound(id);
    if (caller) assertCaseAccess(caller, snapshot.case);
    return snapshot;
  }

  /**
   * As snapshot, for a reader that only shows the case (ActorRuntime.peek): not copied for it, so
   * a full flight's manifest is not copied on every read.
   */
  async peek(caseUrn: string, caller: Principal): Promise<DeepReadonly<CaseSnapshot>> {
    const { id } = caseRefOf(caseUrn);
    const snapshot = await this.actors.peek(CaseActor, id, "snapshot");
    if (!snapshot) throw caseNotFound(id);
    assertCaseAccess(caller, snapshot.case);
    return snapshot;
  }

  /**
   * The case as the reader of one of its groups needs it (CaseActor.groupView), for the platform's
   * own flows: looked at (ActorRuntime.peek), not copied, as they only read it (a saga run reads it
   * for each of its groups' legs and notifications).
   */
  async groupView(caseUrn: string, groupId: string): Promise<DeepReadonly<CaseGroupView>> {
    const { id } = caseRefOf(caseUrn);
    const view = await this.actors.peek(CaseActor, id, "groupView", groupId);
    if (!view) throw caseNotFound(id);
    return view;
  }

  /**
   * A caller's change looks at the case first, to refuse one it may not touch; the platform's own
   * flows are trusted, and the command itself refuses a case that does not exist.
   */
  async change<R extends DeepReadonly<CaseChangeResult>>(request: CaseChangeRequest<R>): Promise<R> {
    const { caller } = request;
    const { id } = caller
      ? caseRefOf((await this.snapshot(request.caseUrn, caller)).case.urn)
      : caseRefOf(request.caseUrn);
    const result = await request.command(id);
    await this.record(result, request);
    return result;
  }

  /** Projects a command's outcome and audits its change, if it made one. */
  async record(
    result: DeepReadonly<CaseChangeResult>,
    request: { caller?: Principal; correlationUrn: string },
  ): Promise<void> {
    await this.projection.apply(result.snapshot);
    const { change, snapshot } = result;
    if (!change) return;
    const { tenant, urn } = snapshot.case;
    await this.audit.append(changeEntry(change, { tenant, entityUrn: urn, caseUrn: urn }, request));
  }
}
