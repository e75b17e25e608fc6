import type { DeepReadonly } from "../../domain/deep-readonly.js";
import type { RankingClass } from "../../domain/allocation/ranking.js";
import type { RankingInput, UnallocatedReason } from "../../domain/allocation/wave.js";
import type { WaveAllocation } from "../../domain/allocation/wave-allocation.js";
import type { Money } from "../../domain/money.js";
import type { PaymentMethod } from "../../domain/policy/policy.js";
import type { Doc, DocumentStore } from "../../runtime/document-store.js";
import type { MissingVendor } from "../hotel-search.js";
import type { CatalogHotelDocument } from "../hotels/hotel-catalog.js";
import type { ConstraintOverride } from "../policies/policy-overrides.js";

/** Completed allocation waves (spec 2.6), one document per wave. */
export const WAVES_COLLECTION = "waves";

/**
 * Rooms assigned by waves, one document per case and group, `{tenant, caseUrn, groupId, rooms}`
 * plus where: the demand summary counts them (src/app/demand/case-fulfilment.ts) and contract
 * availability subtracts them. A later wave for the same group replaces its document.
 */
export { ALLOCATIONS_COLLECTION } from "../cases/case-fulfilment.js";

/** What started a wave. */
export interface WaveTrigger {
  kind: "demand-approved" | "batch" | "manual" | "rerun";
  /** The user, or the system flow, that started it. */
  by: string;
  /** For a rerun: the wave it reruns. */
  rerunOf?: string;
  /** For a rerun a review item asked for, after relaxing the case's policy there. */
  reviewItemUrn?: string;
}

/** The case's policy override (field-manual `relax`) a wave applied on top of its policy's constraints. */
export interface WavePolicyOverride {
  fields: ConstraintOverride;
  /** The latest relaxation's author, reason and time. */
  by: string;
  reason: string;
  at: string;
}

/** A group the wave set out to house. */
export interface WaveGroupRecord {
  groupId: string;
  rooms: number;
  nights: number;
  tier: string;
  checkIn: string;
  checkOut: string;
}

/** One provider's offer for a hotel of the wave, as it was when the wave ran. */
export interface WaveOfferRecord {
  provider: string;
  providerOfferId: string;
  providerHotelId: string;
  /** In the vendor's currency. */
  nightlyRate: Money;
  /** In the wave's currency; null when the rate table cannot convert it. */
  convertedNightlyRate: Money | null;
  /** For a direct contract: the cheapest vendor rate for the same hotel, in the wave's currency. */
  marketNightlyRate: Money | null;
  roomsAvailable: number;
  payments: PaymentMethod[];
  isDirectContract: boolean;
}

/**
 * A hotel the wave considered (after de-duplication), described as the catalog describes a hotel,
 * with every offer for it, cheapest first.
 */
export type WaveHotelRecord = Pick<
  CatalogHotelDocument,
  "hotelUrn" | "name" | "address" | "lat" | "lon" | "stars" | "chainId" | "amenities" | "distanceKm"
> & { offers: WaveOfferRecord[] };

export interface WaveOverrideRecord {
  groupId: string;
  by: string;
  reason: string;
  at: string;
  before: WaveAllocation | null;
  after: WaveAllocation;
}

/** A candidate's verdict as stored (spec 2.6 rankingInputs): the plan's rows as they are. */
export type WaveRankingInput = RankingInput;

/** A class of the wave's groups as stored: the plan's classes as they are. */
export type WaveRankingClass = RankingClass;

/**
 * A verdict as the readers that act on it see it (booking's next hotel for a group, the exception
 * agent's recommendations): they match a few reasons by name, so they read the reasons as words.
 */
export type RankingVerdict = Pick<
  WaveRankingInput,
  "classId" | "hotelUrn" | "provider" | "providerOfferId" | "weightedScore" | "outcome"
> & {
  /** On a selected row, the class's groups placed there; null on every other row. */
  groupIds: readonly string[] | null;
  reasons: readonly string[];
};

export interface WaveDocument extends Doc {
  /** The wave URN. */
  _id: string;
  urn: string;
  tenant: string;
  caseUrn: string;
  airport: string;
  /** The case's wave number; the latest wave of a case has the highest. */
  sequence: number;
  demandUrn: string | null;
  policyUrn: string;
  policyVersion: number;
  /** Present when the case's policy override applied: the gates read the policy with these fields changed. */
  policyOverride?: WavePolicyOverride;
  status: "COMPLETED";
  trigger: WaveTrigger;
  /** Booking books the allocations as soon as the wave completes. */
  autoBook: boolean;
  /** The policy's currency: every cost, rate and saving of the wave is in it. */
  currency: string;
  groups: WaveGroupRecord[];
  /** Groups of the case left out of the wave, and why (local residents, already booked...). */
  skippedGroups: { groupId: string; reason: string }[];
  hotels: WaveHotelRecord[];
  /** The classes of groups the verdicts are about, each naming its groups once. */
  rankingClasses: WaveRankingClass[];
  rankingInputs: WaveRankingInput[];
  allocations: WaveAllocation[];
  unallocated: { groupId: string; reason: UnallocatedReason }[];
  totalCost: Money;
  savingsVsMarket: Money;
  vendorsAnswered: string[];
  vendorsMissing: MissingVendor[];
  searchedAt: string;
  overrides: WaveOverrideRecord[];
  createdAt: string;
  updatedAt: string;
  /** Bumped by every change after creation, so concurrent overrides cannot overwrite each other. */
  revision: number;
}

/** The row the demand summary and contract availability read, per case and group. */
export interface AllocationRow extends Doc {
  tenant: string;
  caseUrn: string;
  groupId: string;
  rooms: number;
  waveUrn: string;
  hotelUrn: string;
  provider: string;
  providerOfferId: string;
  checkIn: string;
  checkOut: string;
  /**
   * When the wave allocated the group (ISO): a search answered before then cannot know of these
   * rooms, so a wave planning from such an answer counts them as taken.
   */
  allocatedAt: string;
}

export function allocationRowId(caseUrn: string, groupId: string): string {
  return `${caseUrn}|${groupId}`;
}

/** The latest wave of a case first: the highest wave number, else (waves written without one) the latest written. */
const LATEST_FIRST = { sort: { sequence: -1, createdAt: -1 } } as const;

/**
 * The latest wave of a case; allocation and booking read it, each through its own view of the
 * document (`T`). A peek: its readers only look at it (a full flight's wave holds tens of
 * thousands of ranking rows), so it may be the stored document and is read-only.
 */
export async function latestWaveOf<T extends Doc = WaveDocument>(
  store: DocumentStore,
  tenant: string,
  caseUrn: string,
): Promise<DeepReadonly<T> | undefined> {
  const [latest] = await store
    .collection<T>(WAVES_COLLECTION)
    .peekAll({ tenant, caseUrn }, { ...LATEST_FIRST, limit: 1 });
  return latest;
}

/**
 * Only `fields` of the latest wave of a case, for a reader that shows a few of its parts: a peek,
 * so the parts are read-only.
 */
export function latestWavePartOf<K extends keyof WaveDocument & string>(
  store: DocumentStore,
  tenant: string,
  caseUrn: string,
  fields: readonly K[],
): Promise<DeepReadonly<Pick<WaveDocument, K | "_id">> | undefined> {
  return store
    .collection<WaveDocument>(WAVES_COLLECTION)
    .peekOneFields({ tenant, caseUrn }, fields, LATEST_FIRST);
}

/** The wave as the API shows it: everything but the storage key and revision. */
export function waveView({ _id, revision, ...wave }: WaveDocument) {
  return wave;
}
