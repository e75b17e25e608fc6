/**
 * The passenger-rights regimes whose care rules the service evaluates, which airports each covers,
 * and each one's care table: which care items it owes, from what waiting time, with the text that
 * says so. The evaluation (`evaluation.ts`) reads these tables; nothing else decides who is owed
 * what. None of these regimes fixes an amount for meals: that comes from the airline's policy
 * (`meal-allowance.ts`).
 */

export const REGIMES = ["EU261", "UK261", "ANAC400", "US_DOT"] as const;
export type Regime = (typeof REGIMES)[number];

/** The care items a regime can owe (the words of Regulation (EC) No 261/2004, Art. 9). */
export const CARE_ITEMS = ["MEALS", "COMMUNICATIONS", "HOTEL", "TRANSPORT"] as const;
export type CareItemKind = (typeof CARE_ITEMS)[number];

/**
 * From what waiting time an item is owed: a number of minutes, or `distance-band` for the delay
 * thresholds of EU261/UK261 Art. 6(1), which depend on the flight's distance (`distance-band.ts`).
 */
export type CareThreshold = number | "distance-band";

export interface CareRule {
  item: CareItemKind;
  /** Waiting time from which the item is owed when the flight is delayed. */
  delayFrom: CareThreshold;
  /** Waiting time from which the item is owed when the flight is cancelled. */
  cancellationFrom: CareThreshold;
  /** Owed only when the wait makes a night's stay necessary (hotel, and the transfer to it). */
  needsOvernight: boolean;
  /** How many (two communications under EU261 Art. 9(2)); absent where the text gives no count. */
  count?: number;
  source: string;
}

export interface RegimeRules {
  regime: Regime;
  name: string;
  /** The instrument as a whole. */
  source: string;
  /**
   * Whether care is owed only when the airline caused the disruption. EU261 and UK261 owe care
   * even in extraordinary circumstances (CJEU C-12/11 McDonagh, 31 January 2013); ANAC Res. 400
   * Art. 26 owes it whatever the cause; the US DOT commitments cover controllable disruptions only.
   */
  onlyControllable: boolean;
  care: readonly CareRule[];
}

const EU261_TEXT = "Regulation (EC) No 261/2004";
const UK261_TEXT = "Regulation (EC) No 261/2004 as retained in UK law (UK261), amended by SI 2019/278";

/**
 * EU261 Art. 6(1) (delay: (i) meals and communications from the band's threshold, (ii) hotel and
 * transfer when the new departure is at least the day after) and Art. 5(1)(b) (cancellation:
 * meals and communications at once, hotel and transfer when the re-routed departure is at least
 * the day after). UK261 keeps the same articles.
 */
function regulation261Care(text: string): CareRule[] {
  return [
    {
      item: "MEALS",
      delayFrom: "distance-band",
      cancellationFrom: 0,
      needsOvernight: false,
      source: `${text}, Art. 9(1)(a) "meals and refreshments in a reasonable relation to the waiting time"; delay: Art. 6(1)(i); cancellation: Art. 5(1)(b)`,
    },
    {
      item: "COMMUNICATIONS",
      delayFrom: "distance-band",
      cancellationFrom: 0,
      needsOvernight: false,
      count: 2,
      source: `${text}, Art. 9(2) "two telephone calls, telex or fax messages, or e-mails"; delay: Art. 6(1)(i); cancellation: Art. 5(1)(b)`,
    },
    {
      item: "HOTEL",
      delayFrom: "distance-band",
      cancellationFrom: 0,
      needsOvernight: true,
      source: `${text}, Art. 9(1)(b) hotel accommodation where a stay of one or more nights becomes necessary; delay: Art. 6(1)(ii); cancellation: Art. 5(1)(b)`,
    },
    {
      item: "TRANSPORT",
      delayFrom: "distance-band",
      cancellationFrom: 0,
      needsOvernight: true,
      source: `${text}, Art. 9(1)(c) transport between the airport and the place of accommodation; delay: Art. 6(1)(ii); cancellation: Art. 5(1)(b)`,
    },
  ];
}

const ANAC400_TEXT = "ANAC Resolution No 400 of 13 December 2016";

/**
 * Material assistance by waiting time, the same for delay, cancellation, interruption and denied
 * boarding (Art. 26, 27). The text says "superior a"; ANAC's own passenger guidance says "a partir
 * de" (from), which is the reading taken here: owed from the hour itself.
 */
const ANAC400_CARE: CareRule[] = [
  {
    item: "COMMUNICATIONS",
    delayFrom: 60,
    cancellationFrom: 60,
    needsOvernight: false,
    source: `${ANAC400_TEXT}, Art. 27, I: communication facilities from 1 hour of waiting`,
  },
  {
    item: "MEALS",
    delayFrom: 120,
    cancellationFrom: 120,
    needsOvernight: false,
    source: `${ANAC400_TEXT}, Art. 27, II: food (a meal or an individual voucher) from 2 hours of waiting`,
  },
  {
    item: "HOTEL",
    delayFrom: 240,
    cancellationFrom: 240,
    needsOvernight: true,
    source: `${ANAC400_TEXT}, Art. 27, III: accommodation in case of an overnight stay, from 4 hours of waiting`,
  },
  {
    item: "TRANSPORT",
    delayFrom: 240,
    cancellationFrom: 240,
    needsOvernight: true,
    source: `${ANAC400_TEXT}, Art. 27, III: transport to the accommodation and back, from 4 hours of waiting`,
  },
];

const US_DOT_TEXT =
  "US DOT Airline Customer Service Dashboard (commitments for controllable cancellations and delays; customer service plans under 14 CFR 259.5)";

/** The dashboard's commitments: a meal voucher from 3 hours, a hotel and its transfer overnight. */
const US_DOT_CARE: CareRule[] = [
  {
    item: "MEALS",
    delayFrom: 180,
    cancellationFrom: 180,
    needsOvernight: false,
    source: `${US_DOT_TEXT}: a meal or meal cash/voucher when the passenger waits 3 hours or more`,
  },
  {
    item: "HOTEL",
    delayFrom: 0,
    cancellationFrom: 0,
    needsOvernight: true,
    source: `${US_DOT_TEXT}: complimentary hotel for a passenger affected by an overnight cancellation or delay`,
  },
  {
    item: "TRANSPORT",
    delayFrom: 0,
    cancellationFrom: 0,
    needsOvernight: true,
    source: `${US_DOT_TEXT}: complimentary ground transportation to and from the hotel`,
  },
];

export const REGIME_RULES: Readonly<Record<Regime, RegimeRules>> = {
  EU261: {
    regime: "EU261",
    name: "EU air passenger rights",
    source: EU261_TEXT,
    onlyControllable: false,
    care: regulation261Care(EU261_TEXT),
  },
  UK261: {
    regime: "UK261",
    name: "UK air passenger rights",
    source: UK261_TEXT,
    onlyControllable: false,
    care: regulation261Care(UK261_TEXT),
  },
  ANAC400: {
    regime: "ANAC400",
    name: "Brazil ANAC material assistance",
    source: ANAC400_TEXT,
    onlyControllable: false,
    care: ANAC400_CARE,
  },
  US_DOT: {
    regime: "US_DOT",
    name: "US DOT airline customer service commitments",
    source: US_DOT_TEXT,
    onlyControllable: true,
    care: US_DOT_CARE,
  },
};

/**
 * Where EU261 applies by territory (Art. 3(1)(a)): the Member States, their outermost regions
 * (TFEU Art. 349, 355(1), which have ISO codes of their own), the EEA states (EEA Agreement,
 * Annex XIII) and Switzerland (EU-Swiss Air Transport Agreement, Annex).
 */
export const EU261_COUNTRIES: ReadonlySet<string> = new Set([
  // The 27 Member States.
  "AT",
  "BE",
  "BG",
  "HR",
  "CY",
  "CZ",
  "DK",
  "EE",
  "FI",
  "FR",
  "DE",
  "GR",
  "HU",
  "IE",
  "IT",
  "LV",
  "LT",
  "LU",
  "MT",
  "NL",
  "PL",
  "PT",
  "RO",
  "SK",
  "SI",
  "ES",
  "SE",
  // Outermost regions with their own country codes.
  "GF",
  "GP",
  "MQ",
  "RE",
  "YT",
  "MF",
  // EEA and Switzerland.
  "IS",
  "LI",
  "NO",
  "CH",
]);

/** UK261 Art. 3(1)(a): airports in the United Kingdom. */
export const UK261_COUNTRIES: ReadonlySet<string> = new Set(["GB"]);

/**
 * The regime of the airport the passengers wait at, by the airport's ISO 3166-1 country: the
 * departure airport decides the care owed there. Airports elsewhere have none of these regimes
 * (an EU or UK regime may still reach them through the arrival rule, see `evaluation.ts`).
 */
export function regimeOfCountry(country: string | null | undefined): Regime | undefined {
  if (!country) return undefined;
  const code = country.toUpperCase();
  if (EU261_COUNTRIES.has(code)) return "EU261";
  if (UK261_COUNTRIES.has(code)) return "UK261";
  if (code === "BR") return "ANAC400";
  if (code === "US") return "US_DOT";
  return undefined;
}

/** An EU carrier (EU261 Art. 2(c) "Community carrier"): licensed in a state where EU261 applies. */
export function isEuCarrier(carrierCountry: string | null | undefined): boolean {
  return !!carrierCountry && EU261_COUNTRIES.has(carrierCountry.toUpperCase());
}

/** A UK carrier (UK261 Art. 2(c) as amended): holding a UK operating licence. */
export function isUkCarrier(carrierCountry: string | null | undefined): boolean {
  return !!carrierCountry && UK261_COUNTRIES.has(carrierCountry.toUpperCase());
}
