import { EARTH_MEAN_RADIUS_KM, greatCircleKm } from "../geo.js";
import type { HotelOffer } from "./offer.js";
import { foldText } from "./text-folding.js";

/** Two offers this close, with the same stars, describe one building (spec 8.2). */
export const SAME_PLACE_RADIUS_KM = 0.1;

/** One hotel after dedup, with every provider's offer for it, cheapest first. */
export interface Hotel {
  /** The smallest member hotelUrn, so the id does not change when prices do. */
  readonly hotelUrn: string;
  readonly offers: readonly HotelOffer[];
}

/** Word forms vendors abbreviate; folded text is compared word by word after expansion. */
const ABBREVIATIONS: Readonly<Record<string, string>> = {
  st: "street",
  str: "street",
  rd: "road",
  ave: "avenue",
  av: "avenue",
  blvd: "boulevard",
  dr: "drive",
  ln: "lane",
  hwy: "highway",
  pkwy: "parkway",
  pl: "place",
  sq: "square",
  ctr: "center",
  centre: "center",
  ste: "suite",
  intl: "international",
  arpt: "airport",
  htl: "hotel",
  n: "north",
  s: "south",
  e: "east",
  w: "west",
};

/** Name or address in the form the exact-match rule compares: folded, abbreviations expanded. */
export function normalizeForMatching(text: string): string {
  return foldText(text)
    .split(" ")
    .map((word) => ABBREVIATIONS[word] ?? word)
    .join(" ");
}

/**
 * Groups offers that describe the same hotel, by the spec's three rules in order: the same
 * provider hotel id (or the same hotelUrn, when a catalog already mapped two providers' ids to one
 * hotel); then coordinates within 100 m and the same star rating; then the exact same normalized
 * name and address. Matching is transitive: an offer that matches any member joins the hotel.
 * Unrated offers never merge on coordinates alone, since "same stars" cannot be confirmed.
 *
 * `priceOf` ranks a hotel's offers, cheapest first; it returns Infinity for an offer whose price
 * cannot be compared (for example, no exchange rate), which then ranks last.
 */
export function dedupOffers(offers: readonly HotelOffer[], priceOf: (offer: HotelOffer) => number): Hotel[] {
  const sets = new DisjointSets(offers.length);
  unionByKey(sets, offers, (o) => `${o.provider}\u0000${o.providerHotelId}`);
  unionByKey(sets, offers, (o) => o.hotelUrn);
  unionSamePlace(sets, offers);
  unionByKey(sets, offers, (o) => {
    const name = normalizeForMatching(o.name);
    const address = normalizeForMatching(o.address);
    return name && address ? `${name}\u0000${address}` : undefined;
  });

  const members = new Map<number, HotelOffer[]>();
  offers.forEach((offer, index) => {
    const root = sets.find(index);
    const list = members.get(root);
    if (list) list.push(offer);
    else members.set(root, [offer]);
  });
  const price = new Map(offers.map((o) => [o, priceOf(o)]));
  return [...members.values()].map((list) => ({
    hotelUrn: list.map((o) => o.hotelUrn).sort()[0]!,
    offers: list.sort(
      (a, b) =>
        price.get(a)! - price.get(b)! ||
        compareText(a.provider, b.provider) ||
        compareText(a.providerOfferId, b.providerOfferId),
    ),
  }));
}

function unionByKey(
  sets: DisjointSets,
  offers: readonly HotelOffer[],
  keyOf: (offer: HotelOffer) => string | undefined,
): void {
  const firstWithKey = new Map<string, number>();
  offers.forEach((offer, index) => {
    const key = keyOf(offer);
    if (key === undefined) return;
    const first = firstWithKey.get(key);
    if (first === undefined) firstWithKey.set(key, index);
    else sets.union(first, index);
  });
}

/** Sweeps offers sorted by latitude, so only pairs less than 100 m apart north-south are measured. */
function unionSamePlace(sets: DisjointSets, offers: readonly HotelOffer[]): void {
  const latitudeWindow = (SAME_PLACE_RADIUS_KM / (EARTH_MEAN_RADIUS_KM * (Math.PI / 180))) * 1.01;
  const rated = offers
    .map((offer, index) => ({ offer, index }))
    .filter(({ offer }) => offer.stars !== null)
    .sort((a, b) => a.offer.lat - b.offer.lat);
  for (let i = 0; i < rated.length; i++) {
    const a = rated[i]!;
    for (let j = i + 1; j < rated.length && rated[j]!.offer.lat - a.offer.lat <= latitudeWindow; j++) {
      const b = rated[j]!;
      if (a.offer.stars === b.offer.stars && greatCircleKm(a.offer, b.offer) <= SAME_PLACE_RADIUS_KM) {
        sets.union(a.index, b.index);
      }
    }
  }
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

class DisjointSets {
  private readonly parent: Int32Array;

  constructor(size: number) {
    this.parent = Int32Array.from({ length: size }, (_, i) => i);
  }

  find(item: number): number {
    let root = item;
    while (this.parent[root] !== root) root = this.parent[root]!;
    for (let at = item; at !== root; ) {
      const next = this.parent[at]!;
      this.parent[at] = root;
      at = next;
    }
    return root;
  }

  union(a: number, b: number): void {
    const rootA = this.find(a);
    const rootB = this.find(b);
    // The smaller index stays root, so hotels come out in the order their first offer arrived.
    if (rootA < rootB) this.parent[rootB] = rootA;
    else if (rootB < rootA) this.parent[rootA] = rootB;
  }
}
