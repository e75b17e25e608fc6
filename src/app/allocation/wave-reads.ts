import { CaseActor } from "../../../actors/CaseActor.js";
import { DomainError } from "../../domain/domain-error.js";
import type { DeepReadonly } from "../../domain/deep-readonly.js";
import type { OperatorPrincipal } from "../principals.js";
import { assertAirport, assertTenant } from "../authorization.js";
import type { ActorRuntime } from "../../runtime/actor-runtime.js";
import type { DocumentStore } from "../../runtime/document-store.js";
import { assertCaseAccess } from "../cases/case-access.js";
import { caseRefOf } from "../cases/case-changes.js";
import { hotelFactsOf } from "../../domain/allocation/offer.js";
import { waveAddress, waveUrnFor } from "../../domain/allocation/wave-addresses.js";
import { latestWavePartOf, type WaveDocument, WAVES_COLLECTION } from "./wave-documents.js";
import { inject, injectable } from "tsyringe";
import { TOKENS } from "../../runtime/tokens.js";

/** Waves as operators read them, with the caller's tenant and airport checked. */
@injectable()
export class WaveReads {
  constructor(
    @inject(TOKENS.actors) private readonly actors: ActorRuntime,
    @inject(TOKENS.documents) private readonly documents: DocumentStore,
  ) {}

  /** 404 for a URN no wave has; 403 for another airline's or, airport-scoped, another airport's. */
  async get(principal: OperatorPrincipal, urn: string): Promise<WaveDocument> {
    const address = waveAddress(urn);
    const wave =
      address &&
      (await this.documents
        .collection<WaveDocument>(WAVES_COLLECTION)
        .get(waveUrnFor(address.caseId, address.number)));
    if (!wave) throw new DomainError("not-found", "wave", `No wave ${urn}`);
    assertTenant(principal, wave.tenant);
    assertAirport(principal, wave.airport);
    return wave;
  }

  /**
   * The parts of the case's latest wave that say which hotels house which groups, or undefined
   * when no wave has run; 404 for an unknown case. Only those parts are read: a wave also holds
   * every ranking verdict, which a hub's storm makes megabytes.
   */
  async hotelsOfCase(
    principal: OperatorPrincipal,
    caseUrn: string,
  ): Promise<{
    caseUrn: string;
    wave: WaveHotelsPart | undefined;
  }> {
    const { id, urn } = caseRefOf(caseUrn);
    const snapshot = await this.actors.peek(CaseActor, id, "snapshot");
    if (!snapshot) throw new DomainError("not-found", "case", `No case ${urn}`);
    assertCaseAccess(principal, snapshot.case);
    const wave = await latestWavePartOf(this.documents, snapshot.case.tenant, urn, WAVE_HOTELS_FIELDS);
    return { caseUrn: urn, wave };
  }
}

const WAVE_HOTELS_FIELDS = ["urn", "hotels", "allocations"] as const;
type WaveHotelsPart = DeepReadonly<Pick<WaveDocument, (typeof WAVE_HOTELS_FIELDS)[number]>>;

/**
 * GET /v1/hotels/cases/{urn}: the hotels the latest wave assigned, each with the groups it houses.
 */
export function hotelsOfWave(wave: WaveHotelsPart | undefined) {
  if (!wave) return [];
  const byUrn = new Map(wave.hotels.map((hotel) => [hotel.hotelUrn, hotel]));
  const hotels = new Map<
    string,
    { hotel: WaveHotelsPart["hotels"][number]; groups: WaveHotelsPart["allocations"][number][] }
  >();
  for (const allocation of wave.allocations) {
    const entry = hotels.get(allocation.hotelUrn);
    if (entry) entry.groups.push(allocation);
    else {
      const hotel = byUrn.get(allocation.hotelUrn);
      if (hotel) hotels.set(allocation.hotelUrn, { hotel, groups: [allocation] });
    }
  }
  return [...hotels.values()].map(({ hotel, groups }) => ({
    hotelUrn: hotel.hotelUrn,
    ...hotelFactsOf(hotel),
    distanceKm: hotel.distanceKm,
    rooms: groups.reduce((sum, g) => sum + g.rooms, 0),
    groups: groups.map((g) => ({
      groupId: g.groupId,
      rooms: g.rooms,
      nights: g.nights,
      checkIn: g.checkIn,
      checkOut: g.checkOut,
      vendor: g.vendor,
      providerOfferId: g.providerOfferId,
      cost: g.cost,
      isDirectContract: g.isDirectContract,
    })),
  }));
}
