import { CaseActor } from "../../../actors/CaseActor.js";
import type { NextFlight } from "../../domain/case.js";
import { type ManifestError, parseManifest } from "../../domain/manifest-spreadsheet.js";
import type { OperatorPrincipal, PartnerPrincipal, Principal } from "../principals.js";
import type { ActorRuntime } from "../../runtime/actor-runtime.js";
import { CaseChanges } from "./case-changes.js";
import { manifestOf, type PushedPassenger } from "./intake.js";
import { type GroupAssignment, passengerIdsOf } from "../../domain/case-manifest.js";
import { inject, injectable } from "tsyringe";
import { TOKENS } from "../../runtime/tokens.js";

export interface UploadOutcome {
  caseUrn: string;
  /** Rows read without error. */
  accepted: number;
  added: string[];
  updated: string[];
  /** One entry per bad field of a left-out row, with its spreadsheet row number. */
  errors: ManifestError[];
}

export interface ManifestAmendment {
  addedPassengers?: (PushedPassenger & { id?: string })[];
  nextFlight?: { iataDesignator: string; scheduledDeparture: string };
  reason?: string;
}

/**
 * Changes to a case's manifest: regrouping, split and merge (spec 2.2, 4.2), spreadsheet upload,
 * and the partner's amendment. Each emits case.amended with the new group list (the sub-case area
 * keeps one sub-case per group from it) and raises MIXED_TIER_GROUP / DATA_INCOMPLETE review items
 * for the groups that call for them.
 */
@injectable()
export class ManifestCommands {
  constructor(
    @inject(TOKENS.actors) private readonly actors: ActorRuntime,
    @inject(CaseChanges) private readonly changes: CaseChanges,
  ) {}

  regroup(
    caller: OperatorPrincipal,
    caseUrn: string,
    groups: GroupAssignment[],
    reason: string,
    correlationUrn: string,
  ) {
    return this.changes.change({
      caseUrn,
      caller,
      correlationUrn,
      command: (id) =>
        this.actors.invoke(CaseActor, id, "regroup", { groups, reason, by: caller.actorUrn, correlationUrn }),
    });
  }

  split(
    caller: OperatorPrincipal,
    caseUrn: string,
    groupId: string,
    into: string[][],
    reason: string,
    correlationUrn: string,
  ) {
    return this.changes.change({
      caseUrn,
      caller,
      correlationUrn,
      command: (id) =>
        this.actors.invoke(CaseActor, id, "splitGroup", {
          groupId,
          into,
          reason,
          by: caller.actorUrn,
          correlationUrn,
        }),
    });
  }

  merge(
    caller: OperatorPrincipal,
    caseUrn: string,
    groupIds: string[],
    reason: string,
    correlationUrn: string,
  ) {
    return this.changes.change({
      caseUrn,
      caller,
      correlationUrn,
      command: (id) =>
        this.actors.invoke(CaseActor, id, "mergeGroups", {
          groupIds,
          reason,
          by: caller.actorUrn,
          correlationUrn,
        }),
    });
  }

  /**
   * POST /cases/{urn}/passengers:bulk: the valid rows are added (or correct passengers already on
   * the case); each invalid row is left out and reported. Nothing is changed when no row is valid.
   */
  async upload(
    caller: Principal,
    caseUrn: string,
    file: Uint8Array,
    correlationUrn: string,
  ): Promise<UploadOutcome> {
    const snapshot = await this.changes.snapshot(caseUrn, caller);
    const { rows, errors } = await parseManifest(file);
    const outcome = { caseUrn: snapshot.case.urn, accepted: rows.length, errors };
    if (rows.length === 0) return { ...outcome, added: [], updated: [] };
    const result = await this.changes.change({
      caseUrn,
      caller,
      correlationUrn,
      command: (id) =>
        this.actors.invoke(CaseActor, id, "addPassengers", {
          lines: rows.map(({ row: _row, ...line }) => line),
          action: "case.passengers-uploaded",
          reason: `${rows.length} row(s) uploaded`,
          by: caller.actorUrn,
          correlationUrn,
        }),
    });
    return { ...outcome, added: result.added, updated: result.updated };
  }

  /**
   * PATCH /partner/v1/cases/{urn}/manifest: passengers added (ids `<PNR>-<n>` unless given) and the
   * next flight corrected. A passenger sent with the id of one already on the case corrects it.
   */
  async amend(
    caller: PartnerPrincipal,
    caseUrn: string,
    amendment: ManifestAmendment,
    correlationUrn: string,
  ) {
    const snapshot = await this.changes.snapshot(caseUrn, caller);
    const taken = passengerIdsOf(snapshot.case.passengerGroups);
    const lines = (amendment.addedPassengers ?? []).map((pushed) => {
      if (!pushed.id) return manifestOf([pushed], taken)[0]!;
      const [line] = manifestOf([pushed], new Set());
      return { ...line!, passenger: { ...line!.passenger, id: pushed.id } };
    });
    const nextFlight: NextFlight | undefined = amendment.nextFlight && {
      number: amendment.nextFlight.iataDesignator,
      scheduledDeparture: amendment.nextFlight.scheduledDeparture,
    };
    return this.changes.change({
      caseUrn,
      caller,
      correlationUrn,
      command: (id) =>
        this.actors.invoke(CaseActor, id, "addPassengers", {
          lines,
          action: "case.manifest-amended",
          ...(nextFlight ? { nextFlight } : {}),
          ...(amendment.reason ? { reason: amendment.reason } : {}),
          by: caller.actorUrn,
          correlationUrn,
        }),
    });
  }
}
