import { SubCaseActor, subCaseActorId } from "../../../actors/SubCaseActor.js";
import type { LockReleaseReason, SubCaseView } from "../../domain/events/sub-case.js";
import type { ActorRuntime } from "../../runtime/actor-runtime.js";
import type { Clock } from "../../runtime/clock.js";
import { SubCaseIndex } from "./sub-case-index.js";
import { inject, injectable } from "tsyringe";
import { TOKENS } from "../../runtime/tokens.js";

/**
 * How long an operator lock lasts. The spec leaves it open (8.2); five minutes covers working one
 * group at the console, and the holder renews by locking again, which keeps its fencing token.
 */
export const LOCK_TTL_MS = 5 * 60_000;

/** The answer to the lock holder: the only place the fencing token is ever shown. */
export interface LockGranted {
  subCaseUrn: string;
  lockedBy: string;
  fencingToken: number;
  expiresAt: string;
  expiresInSeconds: number;
}

/**
 * Operator locks on sub-cases (spec 2.2, 3.4 "Locking"): take, renew, release with the token, and
 * release every lock of an operator whose live connection dropped or who logged out. Callers
 * authorize first (`findSubCase`); each change is copied into the index before the call returns,
 * so the holder's next read already shows it.
 */
@injectable()
export class SubCaseLocks {
  constructor(
    @inject(TOKENS.actors) private readonly actors: ActorRuntime,
    @inject(SubCaseIndex) private readonly index: SubCaseIndex,
    @inject(TOKENS.clock) private readonly clock: Clock,
  ) {}

  async lock(subCase: SubCaseView, by: string, correlationUrn: string): Promise<LockGranted> {
    const { view, lock } = await this.actors.invoke(SubCaseActor, actorIdOf(subCase), "lock", {
      by,
      ttlMs: LOCK_TTL_MS,
      correlationUrn,
    });
    await this.index.record(view);
    return {
      subCaseUrn: view.subCaseUrn,
      lockedBy: lock.lockedBy,
      fencingToken: lock.fencingToken,
      expiresAt: lock.expiresAt,
      expiresInSeconds: Math.ceil((Date.parse(lock.expiresAt) - this.clock.now()) / 1000),
    };
  }

  async unlock(
    subCase: SubCaseView,
    by: string,
    fencingToken: number,
    correlationUrn: string,
  ): Promise<SubCaseView> {
    const view = await this.actors.invoke(SubCaseActor, actorIdOf(subCase), "unlock", {
      by,
      fencingToken,
      correlationUrn,
    });
    await this.index.record(view);
    return view;
  }

  /** Releases every lock `by` holds in the tenant; returns the sub-cases it released. */
  async releaseAllHeldBy(
    tenant: string,
    by: string,
    reason: Exclude<LockReleaseReason, "unlock">,
    correlationUrn: string,
  ): Promise<SubCaseView[]> {
    const held = await this.index.lockedBy(tenant, by);
    const released = await Promise.all(
      held.map(async (doc) => {
        const outcome = await this.actors.invoke(
          SubCaseActor,
          actorIdOf({ subCaseUrn: doc._id }),
          "releaseHeldBy",
          {
            by,
            reason,
            correlationUrn,
          },
        );
        if (outcome.view) await this.index.record(outcome.view);
        return outcome.released ? outcome.view : undefined;
      }),
    );
    return released.filter((view): view is SubCaseView => view !== undefined);
  }
}

function actorIdOf(subCase: Pick<SubCaseView, "subCaseUrn">): string {
  return subCaseActorId(subCase.subCaseUrn)!;
}
