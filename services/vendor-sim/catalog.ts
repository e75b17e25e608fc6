/**
 * The physical hotels around the demo airports: the "real world" the simulated vendors sell. Each
 * hotel is listed at one to three vendors, which publish it under their own ids and wire shapes;
 * finding that it is one hotel again is the search's deduplication job. Same seed, same catalog.
 */
import { DEMO_AIRLINES } from "../../src/demo/demo-airlines.js";
import { type Coordinates, greatCircleKm } from "../../src/domain/geo.js";
import type { Airport } from "../../src/app/directory.js";
import { roundTo } from "./rounding.js";
import { SeededRandom } from "../../src/domain/seeded-random.js";

export type SimulatedVendorId = "vendor-a" | "vendor-b" | "vendor-c";
export const SIMULATED_VENDOR_IDS: readonly SimulatedVendorId[] = ["vendor-a", "vendor-b", "vendor-c"];

/** The catalog's own amenity names; every vendor translates them into its vocabulary. */
export type CatalogAmenity =
  | "24H_RECEPTION"
  | "AIRPORT_SHUTTLE"
  | "WHEELCHAIR_ACCESSIBLE"
  | "FREE_BREAKFAST"
  | "FREE_WIFI"
  | "PARKING"
  | "RESTAURANT"
  | "FITNESS_CENTER"
  | "POOL"
  | "PET_FRIENDLY";

export type Stars = 1 | 2 | 3 | 4 | 5;

export interface HotelChain {
  /** Provider-independent two-letter chain code (the same at every vendor). */
  chainId: string;
  name: string;
}

export interface CatalogAddress {
  line: string;
  city: string;
  postalCode: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
}

export interface CatalogHotel {
  /** The physical hotel, e.g. `JFK-007`; never on any vendor's wire. */
  key: string;
  /** Provider-independent property code, published by the vendors that carry one. */
  propertyCode: string;
  airport: string;
  name: string;
  chain?: HotelChain;
  /** Undefined for an unrated hotel. */
  stars?: Stars;
  lat: number;
  lon: number;
  distanceKm: number;
  address: CatalogAddress;
  amenities: CatalogAmenity[];
  /** Typical nightly rate per room before each vendor's markup and currency. */
  baseRateUsd: number;
  /** Rooms each vendor may sell per night (its allotment). */
  roomsPerNight: number;
  vendors: SimulatedVendorId[];
}

export interface CatalogOptions {
  seed: number | string;
  airports?: readonly Airport[];
  /** Hotels per airport, drawn in this range (both included). */
  hotelsPerAirport?: readonly [number, number];
}

const CHAINS: ReadonlyArray<HotelChain & { stars: Stars }> = [
  { chainId: "AS", name: "Aerostay", stars: 3 },
  { chainId: "NW", name: "Northwind Suites", stars: 4 },
  { chainId: "HL", name: "Harbor Lights Inn", stars: 2 },
  { chainId: "GA", name: "Grand Aurelia", stars: 5 },
  { chainId: "CL", name: "Cityloft", stars: 3 },
  { chainId: "BN", name: "Budget Nest", stars: 1 },
  { chainId: "SK", name: "Skyport Hotel", stars: 4 },
  { chainId: "IB", name: "Ironbridge Hotels", stars: 4 },
];

const INDEPENDENT_FIRST = [
  "The Linden",
  "Cedar House",
  "The Wayfarer",
  "Blue Heron",
  "The Carlisle",
  "Old Mill",
  "Stonegate",
  "The Ashford",
  "Riverside",
  "Parkview",
  "The Kestrel",
  "Willow Court",
  "The Regent",
  "Fairholme",
  "Orchard",
  "The Beacon",
];
const INDEPENDENT_LAST = ["Hotel", "Inn", "Lodge", "Guesthouse", "Suites", "Hotel & Spa"];

interface Locality {
  city: string;
  postalCodes: readonly string[];
  streets: readonly string[];
}

/** Real neighbourhoods and streets near each demo airport, so addresses read plausibly. */
const LOCALITIES: Record<string, readonly Locality[]> = {
  JFK: [
    {
      city: "Jamaica",
      postalCodes: ["11430", "11434", "11435"],
      streets: ["Rockaway Blvd", "Sutphin Blvd", "Merrick Blvd", "Jamaica Ave"],
    },
    {
      city: "Howard Beach",
      postalCodes: ["11414"],
      streets: ["Cross Bay Blvd", "Lindenwood Rd", "157th Ave"],
    },
    {
      city: "South Ozone Park",
      postalCodes: ["11420"],
      streets: ["Lefferts Blvd", "Conduit Ave", "Rockaway Blvd"],
    },
    {
      city: "Valley Stream",
      postalCodes: ["11580", "11581"],
      streets: ["Sunrise Hwy", "Merrick Rd", "Rockaway Ave"],
    },
  ],
  BOS: [
    { city: "East Boston", postalCodes: ["02128"], streets: ["Bennington St", "McClellan Hwy", "Porter St"] },
    { city: "Revere", postalCodes: ["02151"], streets: ["Revere Beach Pkwy", "Broadway", "Ocean Ave"] },
    { city: "Winthrop", postalCodes: ["02152"], streets: ["Shirley St", "Pauline St"] },
    {
      city: "Boston",
      postalCodes: ["02210", "02110"],
      streets: ["Congress St", "Atlantic Ave", "Seaport Blvd"],
    },
  ],
  ORD: [
    { city: "Rosemont", postalCodes: ["60018"], streets: ["River Rd", "Balmoral Ave", "Higgins Rd"] },
    { city: "Des Plaines", postalCodes: ["60016", "60018"], streets: ["Mannheim Rd", "Touhy Ave", "Lee St"] },
    { city: "Schiller Park", postalCodes: ["60176"], streets: ["Irving Park Rd", "Mannheim Rd"] },
    {
      city: "Elk Grove Village",
      postalCodes: ["60007"],
      streets: ["Devon Ave", "Busse Rd", "Arlington Heights Rd"],
    },
  ],
  LHR: [
    {
      city: "Hounslow",
      postalCodes: ["TW6 2AQ", "TW4 6BX", "TW3 1ES"],
      streets: ["Bath Road", "Great South West Road", "High Street"],
    },
    {
      city: "Hayes",
      postalCodes: ["UB3 5AP", "UB3 1HW"],
      streets: ["Stockley Road", "Shepiston Lane", "Dawley Road"],
    },
    { city: "West Drayton", postalCodes: ["UB7 0DU", "UB7 9HJ"], streets: ["Sipson Road", "Station Road"] },
    {
      city: "Staines-upon-Thames",
      postalCodes: ["TW18 4AX", "TW18 3BA"],
      streets: ["London Road", "Thames Street"],
    },
  ],
  MAD: [
    {
      city: "Madrid",
      postalCodes: ["28042", "28022"],
      streets: ["Avenida de Logroño", "Calle de la Playa de Riazor", "Calle Galeón"],
    },
    {
      city: "Coslada",
      postalCodes: ["28820", "28821"],
      streets: ["Avenida de la Constitución", "Calle Mayor"],
    },
    {
      city: "San Fernando de Henares",
      postalCodes: ["28830"],
      streets: ["Avenida de Castilla", "Calle de la Presa"],
    },
    {
      city: "Alcobendas",
      postalCodes: ["28108", "28100"],
      streets: ["Avenida de Bruselas", "Calle de Francisca Delgado"],
    },
  ],
  GRU: [
    {
      city: "Guarulhos",
      postalCodes: ["07190-100", "07034-911", "07110-000"],
      streets: ["Rodovia Hélio Smidt", "Avenida Monteiro Lobato", "Avenida Tiradentes"],
    },
    {
      city: "Cumbica",
      postalCodes: ["07180-000", "07224-000"],
      streets: ["Avenida Paulo Faccini", "Rua Dom Pedro II"],
    },
    {
      city: "São Paulo",
      postalCodes: ["02012-000", "03014-000"],
      streets: ["Avenida Cruzeiro do Sul", "Rua Sete de Setembro"],
    },
  ],
};

/** Rough price level per country, relative to the US. */
const PRICE_LEVEL: Record<string, number> = { US: 1, GB: 1.1, ES: 0.85, BR: 0.6 };

const KM_PER_DEGREE_LAT = 111.32;
const MIN_SEPARATION_KM = 0.15;

export const DEMO_AIRPORTS: readonly Airport[] = DEMO_AIRLINES.flatMap((airline) => airline.airports);

export class HotelCatalog {
  constructor(readonly hotels: readonly CatalogHotel[]) {}

  atAirport(airport: string): CatalogHotel[] {
    return this.hotels.filter((hotel) => hotel.airport === airport);
  }
}

export function buildCatalog(options: CatalogOptions): HotelCatalog {
  const random = new SeededRandom(`catalog:${options.seed}`);
  const [fewest, most] = options.hotelsPerAirport ?? [25, 40];
  const hotels: CatalogHotel[] = [];
  for (const airport of options.airports ?? DEMO_AIRPORTS) {
    const count = random.int(fewest, most);
    const names = new Set<string>();
    const placed: Coordinates[] = [];
    for (let index = 1; index <= count; index++) {
      hotels.push(hotelNear(airport, index, random, names, placed));
    }
  }
  return new HotelCatalog(hotels);
}

function hotelNear(
  airport: Airport,
  index: number,
  random: SeededRandom,
  names: Set<string>,
  placed: Coordinates[],
): CatalogHotel {
  const localities = LOCALITIES[airport.code] ?? [
    { city: airport.city, postalCodes: ["00000"], streets: ["Airport Road", "Main Street"] },
  ];
  const locality = random.pick(localities);
  const { lat, lon, distanceKm } = freeSpot(airport, placed, random);
  placed.push({ lat, lon });

  const chained = random.chance(0.6);
  const chain = chained ? random.pick(CHAINS) : undefined;
  const stars = chain ? chain.stars : random.chance(0.15) ? undefined : (random.int(1, 5) as Stars);
  const name = uniqueName(
    names,
    () =>
      chain
        ? `${chain.name} ${random.pick([locality.city, `${airport.code} Airport`, `${locality.city} Airport`])}`
        : `${random.pick(INDEPENDENT_FIRST)} ${random.pick(INDEPENDENT_LAST)}`,
    locality.city,
  );
  const address: CatalogAddress = {
    line: `${random.int(1, 2400)} ${random.pick(locality.streets)}`,
    city: locality.city,
    postalCode: random.pick(locality.postalCodes),
    country: airport.country,
  };
  const level = stars ?? 2;
  const nearby = distanceKm < 3 ? 20 : 0;
  const baseRateUsd = Math.round(
    (55 + 30 * level + nearby) * (PRICE_LEVEL[airport.country] ?? 1) * random.between(0.85, 1.15),
  );
  return {
    key: `${airport.code}-${String(index).padStart(3, "0")}`,
    propertyCode: `GP${String(random.int(1_000_000, 9_999_999))}`,
    airport: airport.code,
    name,
    ...(chain ? { chain: { chainId: chain.chainId, name: chain.name } } : {}),
    ...(stars ? { stars } : {}),
    lat: roundTo(lat, 7),
    lon: roundTo(lon, 7),
    distanceKm: roundTo(distanceKm, 2),
    address,
    amenities: amenitiesFor(level, distanceKm, random),
    baseRateUsd,
    roomsPerNight: random.int(3, 25),
    vendors: vendorsListing(random),
  };
}

/**
 * A position 0.3 to 30 km from the airport, most of them close to the terminals, and never within
 * 150 m of another catalog hotel: two buildings that close would be one hotel to dedup's 100 m rule.
 */
function freeSpot(airport: Airport, placed: readonly Coordinates[], random: SeededRandom) {
  for (;;) {
    const distanceKm = 0.3 + 29.7 * random.next() ** 2;
    const bearing = random.between(0, 2 * Math.PI);
    const spot = {
      lat: airport.lat + (distanceKm * Math.cos(bearing)) / KM_PER_DEGREE_LAT,
      lon:
        airport.lon +
        (distanceKm * Math.sin(bearing)) / (KM_PER_DEGREE_LAT * Math.cos((airport.lat * Math.PI) / 180)),
    };
    if (placed.every((other) => greatCircleKm(spot, other) >= MIN_SEPARATION_KM))
      return { ...spot, distanceKm };
  }
}

function uniqueName(taken: Set<string>, draw: () => string, city: string): string {
  for (let attempt = 0; attempt < 8; attempt++) {
    const name = draw();
    if (!taken.has(name)) {
      taken.add(name);
      return name;
    }
  }
  let suffix = 2;
  const base = `${draw()} ${city}`;
  while (taken.has(`${base} ${suffix}`)) suffix++;
  taken.add(`${base} ${suffix}`);
  return `${base} ${suffix}`;
}

function amenitiesFor(level: number, distanceKm: number, random: SeededRandom): CatalogAmenity[] {
  const odds: Array<[CatalogAmenity, number]> = [
    ["24H_RECEPTION", 0.45 + 0.1 * level],
    ["AIRPORT_SHUTTLE", distanceKm < 8 ? 0.75 : 0.2],
    ["WHEELCHAIR_ACCESSIBLE", 0.55 + 0.08 * level],
    ["FREE_BREAKFAST", level >= 5 ? 0.2 : 0.45],
    ["FREE_WIFI", 0.9],
    ["PARKING", 0.6],
    ["RESTAURANT", 0.1 + 0.15 * level],
    ["FITNESS_CENTER", 0.15 * level],
    ["POOL", 0.1 * level],
    ["PET_FRIENDLY", 0.25],
  ];
  return odds.filter(([, probability]) => random.chance(probability)).map(([amenity]) => amenity);
}

/** About a third of the hotels at all three vendors, most of the rest at two, a few at one. */
function vendorsListing(random: SeededRandom): SimulatedVendorId[] {
  const roll = random.next();
  const count = roll < 0.35 ? 3 : roll < 0.75 ? 2 : 1;
  const chosen = random.sample(SIMULATED_VENDOR_IDS, count);
  return SIMULATED_VENDOR_IDS.filter((vendor) => chosen.includes(vendor));
}
