import { ReviewItemActor, type ReviewItemTurn } from "../../../actors/ReviewItemActor.js";
import { DomainError } from "../../domain/domain-error.js";
import type { Acting } from "../../domain/review-item.js";
import { roleSatisfies } from "../../domain/roles.js";
import { parseUrn } from "../../domain/urn.js";
import type { OperatorPrincipal } from "../principals.js";
import type { Directory } from "../directory.js";
import type { ActorRuntime } from "../../runtime/actor-runtime.js";
import { TOKENS } from "../../runtime/tokens.js";
import { CaseChanges } from "../cases/case-changes.js";
import { ManifestCommands } from "../cases/manifest-commands.js";
import { CaseReturn } from "./case-return.js";
import { type ConstraintOverride, PolicyOverrides } from "../policies/policy-overrides.js";
import { ReviewItemChanges } from "./review-item-changes.js";
import { inject, injectable } from "tsyringe";

interface Request {
  caller: OperatorPrincipal;
  urn: string;
  correlationUrn: string;
}

/**
 * What operators do with a review item (spec 3.5, 4.1, 4.2). Every action but claim and assign
 * needs the caller to hold the item: acting on an item nobody holds claims it, an operator cannot
 * act on an item someone else holds (409 with `assignedTo`), and a supervisor (OPS_SUPERVISOR and
 * above) takes it over. Each change is audited with its actor and reason.
 */
@injectable()
export class ReviewActions {
  constructor(
    @inject(TOKENS.actors) private readonly actors: ActorRuntime,
    @inject(ReviewItemChanges) private readonly changes: ReviewItemChanges,
    @inject(CaseChanges) private readonly caseChanges: CaseChanges,
    @inject(ManifestCommands) private readonly manifest: ManifestCommands,
    @inject(CaseReturn) private readonly caseReturn: CaseReturn,
    @inject(PolicyOverrides) private readonly overrides: PolicyOverrides,
    @inject(TOKENS.directory) private readonly directory: Directory,
  ) {}

  claim({ caller, urn, correlationUrn }: Request) {
    return this.changes.change({
      urn,
      caller,
      correlationUrn,
      command: (id) =>
        this.actors.invoke(ReviewItemActor, id, "claim", { by: caller.actorUrn, correlationUrn }),
    });
  }

  /** A supervisor hands the item to a user of the airline (the caller when none is named). */
  async assign({ caller, urn, correlationUrn, assignee }: Request & { assignee?: string }) {
    const item = await this.changes.find(urn, caller);
    const to = assignee ?? caller.actorUrn;
    if (to !== caller.actorUrn) await this.assertAssignable(to, caller.tenant, item.airport);
    return this.changes.change({
      urn,
      caller,
      correlationUrn,
      command: (id) =>
        this.actors.invoke(ReviewItemActor, id, "assign", {
          by: caller.actorUrn,
          assignee: to,
          correlationUrn,
        }),
    });
  }

  escalate({ caller, urn, correlationUrn, reason }: Request & { reason: string }) {
    return this.changes.change({
      urn,
      caller,
      correlationUrn,
      command: (id) =>
        this.actors.invoke(ReviewItemActor, id, "escalate", {
          by: caller.actorUrn,
          reason,
          correlationUrn,
        }),
    });
  }

  /** Closes the item; a case it held in MANUAL_REVIEW goes back to the normal flow. */
  async resolve({
    caller,
    urn,
    correlationUrn,
    resolution,
    reason,
  }: Request & { resolution: string; reason: string }) {
    const turn = await this.changes.change({
      urn,
      caller,
      correlationUrn,
      command: (id) =>
        this.actors.invoke(ReviewItemActor, id, "resolve", {
          ...acting(caller),
          resolution,
          reason,
          correlationUrn,
        }),
    });
    await this.caseReturn.afterResolved(turn.item, correlationUrn);
    return turn;
  }

  /** Rebook (a hotel) or override (a hotel and one of its offers): booking is asked per group. */
  rebook({
    caller,
    urn,
    correlationUrn,
    hotelUrn,
    providerOfferId,
    reason,
  }: Request & { hotelUrn: string; providerOfferId?: string; reason: string }) {
    return this.changes.change({
      urn,
      caller,
      correlationUrn,
      command: (id) =>
        this.actors.invoke(ReviewItemActor, id, "requestRebooking", {
          ...acting(caller),
          kind: providerOfferId ? "override" : "rebook",
          hotelUrn,
          ...(providerOfferId ? { providerOfferId } : {}),
          reason,
          correlationUrn,
        }),
    });
  }

  /**
   * A per-case policy override: stored where allocation reads it (`policy-overrides`), then the
   * item asks allocation to run the case's wave again. The caller holds the item first, so nobody
   * relaxes the policy under an item someone else works.
   */
  async relax({
    caller,
    urn,
    correlationUrn,
    fields,
    reason,
  }: Request & { fields: ConstraintOverride; reason: string }) {
    const taken = await this.take(caller, urn, correlationUrn);
    await this.overrides.relax({
      tenant: taken.item.tenant,
      caseUrn: taken.item.caseUrn,
      fields,
      by: caller.actorUrn,
      reason,
      reviewItemUrn: taken.item.urn,
    });
    return this.changes.change({
      urn,
      caller,
      correlationUrn,
      command: (id) =>
        this.actors.invoke(ReviewItemActor, id, "recordRelaxation", {
          ...acting(caller),
          fields,
          reason,
          correlationUrn,
        }),
    });
  }

  /**
   * Splits one of the item's groups through the case (the same rules as
   * POST /cases/{urn}/groups/{groupId}/split); the parts replace it among the affected groups.
   */
  async split({ caller, urn, correlationUrn, into, reason }: Request & { into: string[][]; reason: string }) {
    const taken = await this.take(caller, urn, correlationUrn);
    const { item } = taken;
    const before = await this.caseChanges.snapshot(item.caseUrn, caller);
    const groupId = groupOfSplit(before.case.passengerGroups, item.affectedGroups, into);
    const known = new Set(before.case.passengerGroups.map((g) => g.id));
    const result = await this.manifest.split(caller, item.caseUrn, groupId, into, reason, correlationUrn);
    const parts = result.snapshot.case.passengerGroups.map((g) => g.id).filter((id) => !known.has(id));
    return this.changes.change({
      urn,
      caller,
      correlationUrn,
      command: (id) =>
        this.actors.invoke(ReviewItemActor, id, "recordSplit", {
          ...acting(caller),
          groupId,
          parts,
          reason,
          correlationUrn,
        }),
    });
  }

  private take(caller: OperatorPrincipal, urn: string, correlationUrn: string): Promise<ReviewItemTurn> {
    return this.changes.change({
      urn,
      caller,
      correlationUrn,
      command: (id) => this.actors.invoke(ReviewItemActor, id, "take", { ...acting(caller), correlationUrn }),
    });
  }

  /** Only a user of the same airline who may work items (not a read-only auditor), on this airport. */
  private async assertAssignable(assignee: string, tenant: string, airport: string): Promise<void> {
    const id = parseUrn(assignee, "user")?.id;
    const user = id ? await this.directory.findUser(id) : undefined;
    const membership = user?.membership;
    const refusal =
      membership?.airlineUrn !== tenant
        ? "is not a user of this airline"
        : !roleSatisfies(membership.role, ["AIRPORT_OPERATOR"])
          ? `has role ${membership.role}, which cannot work review items`
          : membership.airport && membership.airport !== airport
            ? `works at ${membership.airport} only, and the item is at ${airport}`
            : undefined;
    if (refusal) {
      throw new DomainError("unprocessable", "assignee-not-allowed", `${assignee} ${refusal}`, { assignee });
    }
  }
}

function acting(caller: OperatorPrincipal): Acting {
  return { by: caller.actorUrn, mayTakeOver: roleSatisfies(caller.role, ["OPS_SUPERVISOR"]) };
}

/** The affected group every passenger of the split belongs to. */
function groupOfSplit(
  groups: readonly { id: string; passengers: readonly { id: string }[] }[],
  affectedGroups: readonly string[],
  into: readonly (readonly string[])[],
): string {
  const passengerIds = into.flat();
  const owners = new Set(
    passengerIds.map((passengerId) => groups.find((g) => g.passengers.some((p) => p.id === passengerId))?.id),
  );
  const [owner] = owners;
  if (owners.size !== 1 || owner === undefined || !affectedGroups.includes(owner)) {
    throw new DomainError(
      "unprocessable",
      "split-outside-item",
      "Every passenger of the split must belong to one and the same group the item is about",
      { affectedGroups: [...affectedGroups] },
    );
  }
  return owner;
}
