import { inject, injectable } from "tsyringe";
import type { DomainEvent } from "../../domain/domain-event.js";
import { EVENT_TYPES, type EventType } from "../../domain/events/catalogue.js";
import { parseUrn } from "../../domain/urn.js";
import type { Clock } from "../../runtime/clock.js";
import { TOKENS } from "../../runtime/tokens.js";

/**
 * The event families whose state `GET /v1/me/offer` shows: the sub-case (status, offer, answer,
 * retirement), the case (drill, the facts its entitlements rest on), booking (the reservation, its
 * voucher), ground transport and the meal card. Any of them about a case drops its groups' offers.
 */
const OFFER_FAMILIES = ["subcase.", "case.", "booking.", "reservation.", "voucher.", "transport.", "wallet."];

/** The event types that change what a group's offer shows. */
export const OFFER_EVENT_TYPES: readonly EventType[] = EVENT_TYPES.filter((type) =>
  OFFER_FAMILIES.some((family) => type.startsWith(family)),
);

/**
 * How long a kept offer is served at most: the passenger read cache's max-age (spec 9). What the
 * events above do not cover (the tenant's policies, the hotel catalog's coordinates) reaches the
 * passenger at most this late, as it would through the passenger's own cache.
 */
export const OFFER_CACHE_TTL_MS = 60_000;

/** Offers kept at most: a full flight's groups many times over, each a few kilobytes. */
export const OFFER_CACHE_LIMIT = 2_000;

interface Kept<T> {
  value: T;
  expiresAt: number;
}

/**
 * The groups' offers as last built (spec 4.4: "a write purges the affected cache keys"), so a read
 * that nothing has changed since is not built again. Keyed by tenant, case and group, all three
 * from the verified session, so one group's offer never reaches another's passengers. An offer is
 * dropped by the events that change it (`purge`, on every replica) and by the passenger's own
 * writes here (`drop`); a build a purge overtook is not kept, since it may have read the state
 * from before the change.
 */
@injectable()
export class OfferCache<T = unknown> {
  /** Per tenant and case, its groups' offers; in the order the cases were last read (oldest first). */
  private readonly cases = new Map<string, Map<string, Kept<T>>>();
  /** The case last in `cases`, when known: a read of it has nothing to move. */
  private newest: string | undefined;
  private size = 0;
  /**
   * The builds under way, per tenant, case and group: a read that misses joins the group's build
   * instead of making its own. A purge of the case takes them out: what they read may be from
   * before the change, so they are not kept, and the reads after the purge build anew.
   */
  private readonly building = new Map<string, { value: Promise<T>; overtaken: boolean }>();

  constructor(@inject(TOKENS.clock) private readonly clock: Clock) {}

  async read(tenant: string, caseId: string, groupId: string, build: () => Promise<T>): Promise<T> {
    const caseKey = caseKeyOf(tenant, caseId);
    const groups = this.cases.get(caseKey);
    const kept = groups?.get(groupId);
    const now = this.clock.now();
    if (groups && kept && kept.expiresAt > now) {
      if (caseKey !== this.newest) this.moveToNewest(caseKey, groups);
      return kept.value;
    }
    const groupKey = groupKeyOf(caseKey, groupId);
    const under = this.building.get(groupKey);
    if (under) return under.value;
    const flight = { value: build(), overtaken: false };
    this.building.set(groupKey, flight);
    try {
      const value = await flight.value;
      if (!flight.overtaken) this.keep(caseKey, groupId, { value, expiresAt: now + OFFER_CACHE_TTL_MS });
      return value;
    } finally {
      if (this.building.get(groupKey) === flight) this.building.delete(groupKey);
    }
  }

  /** After a write of the group's own: its next read is built anew. */
  drop(tenant: string, caseId: string, groupId: string): void {
    const caseKey = caseKeyOf(tenant, caseId);
    this.overtake(groupKeyOf(caseKey, groupId));
    const groups = this.cases.get(caseKey);
    if (groups?.delete(groupId)) this.size--;
  }

  /**
   * A domain event of `OFFER_EVENT_TYPES`: drops the offers of the case it names (both URN forms
   * name the same case id), or of the whole tenant when it names none.
   */
  purge(event: Pick<DomainEvent, "tenant" | "caseUrn" | "data">): void {
    const data = event.data as { caseUrn?: unknown } | null | undefined;
    const caseUrn = event.caseUrn ?? (typeof data?.caseUrn === "string" ? data.caseUrn : undefined);
    const caseId = caseUrn === undefined ? undefined : parseUrn(caseUrn, "case")?.id;
    if (caseId !== undefined) {
      const caseKey = caseKeyOf(event.tenant, caseId);
      this.overtake(groupKeyOf(caseKey, ""));
      this.forget(caseKey);
      return;
    }
    const prefix = caseKeyOf(event.tenant, "");
    this.overtake(prefix);
    for (const caseKey of [...this.cases.keys()]) if (caseKey.startsWith(prefix)) this.forget(caseKey);
  }

  /** The builds under way whose keys start with `prefix` are not kept, nor joined. */
  private overtake(prefix: string): void {
    for (const [groupKey, flight] of this.building) {
      if (!groupKey.startsWith(prefix)) continue;
      flight.overtaken = true;
      this.building.delete(groupKey);
    }
  }

  private forget(caseKey: string): void {
    const groups = this.cases.get(caseKey);
    if (!groups) return;
    this.size -= groups.size;
    this.cases.delete(caseKey);
    if (caseKey === this.newest) this.newest = undefined;
  }

  private moveToNewest(caseKey: string, groups: Map<string, Kept<T>>): void {
    this.cases.delete(caseKey);
    this.cases.set(caseKey, groups);
    this.newest = caseKey;
  }

  private keep(caseKey: string, groupId: string, kept: Kept<T>): void {
    const groups = this.cases.get(caseKey) ?? new Map<string, Kept<T>>();
    this.moveToNewest(caseKey, groups);
    if (!groups.has(groupId)) this.size++;
    groups.set(groupId, kept);
    // The least recently read cases go first, whole, until the limit holds again.
    for (const oldest of this.cases.keys()) {
      if (this.size <= OFFER_CACHE_LIMIT || oldest === caseKey) break;
      this.forget(oldest);
    }
  }
}

function caseKeyOf(tenant: string, caseId: string): string {
  return `${tenant}\n${caseId}`;
}

function groupKeyOf(caseKey: string, groupId: string): string {
  return `${caseKey}\n${groupId}`;
}
