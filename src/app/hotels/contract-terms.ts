/**
 * Contract terms read from a contract's text with a handful of regular expressions: the nightly
 * rate and its currency, the validity dates and the rooms per night. No model reads the document:
 * what the patterns do not find is reported missing, and each found value comes with the line it
 * was read from so a supervisor can check it before creating the contract.
 */

export interface ExtractedTerms {
  nightlyRate?: number;
  currency?: string;
  roomsPerNight?: number;
  validFrom?: string;
  validTo?: string;
}

export type TermField = keyof ExtractedTerms;

export interface TermsExtraction {
  terms: ExtractedTerms;
  /** The line of text each value was read from. */
  evidence: Partial<Record<TermField, string>>;
  missing: TermField[];
}

const FIELDS: readonly TermField[] = ["nightlyRate", "currency", "roomsPerNight", "validFrom", "validTo"];

const SYMBOLS: Readonly<Record<string, string>> = { $: "USD", "€": "EUR", "£": "GBP", R$: "BRL" };
const AMOUNT = String.raw`(\d{1,3}(?:[,.\s]\d{3})*(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?)`;
const CODE = String.raw`\b([A-Z]{3})\b`;
const SYMBOL = String.raw`(R\$|[$€£])`;
const MONEY_PATTERNS: readonly { pattern: RegExp; currency: number; amount: number }[] = [
  { pattern: new RegExp(`${CODE}\\s?${AMOUNT}`), currency: 1, amount: 2 },
  { pattern: new RegExp(`${SYMBOL}\\s?${AMOUNT}`), currency: 1, amount: 2 },
  { pattern: new RegExp(`${AMOUNT}\\s?${CODE}`), currency: 2, amount: 1 },
  { pattern: new RegExp(`${AMOUNT}\\s?${SYMBOL}`), currency: 2, amount: 1 },
];
/** ISO 4217 codes, so that an airport code or a word in capitals is not read as a currency. */
const CURRENCIES: ReadonlySet<string> = new Set(Intl.supportedValuesOf("currency"));

const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];
const MONTH =
  "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";
const DATE_PATTERNS: readonly { pattern: RegExp; read: (m: RegExpExecArray) => string | undefined }[] = [
  { pattern: /\b(\d{4})-(\d{2})-(\d{2})\b/g, read: (m) => isoDate(m[1]!, m[2]!, m[3]!) },
  {
    pattern: new RegExp(String.raw`\b(\d{1,2})(?:st|nd|rd|th)?\s+${MONTH}\.?,?\s+(\d{4})\b`, "gi"),
    read: (m) => isoDate(m[3]!, monthNumber(m[2]!), m[1]!),
  },
  {
    pattern: new RegExp(String.raw`\b${MONTH}\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b`, "gi"),
    read: (m) => isoDate(m[3]!, monthNumber(m[1]!), m[2]!),
  },
];

const ROOMS_PATTERNS: readonly RegExp[] = [
  /\b(\d{1,4})\s+rooms?\s+(?:per|a|each|every)\s+night\b/i,
  /\brooms?\s+per\s+night\s*[:=-]?\s*(\d{1,4})\b/i,
  /\ballotment\s*(?:of)?\s*[:=-]?\s*(\d{1,4})\s+rooms?\b/i,
];

export function extractContractTerms(text: string): TermsExtraction {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  const terms: ExtractedTerms = {};
  const evidence: TermsExtraction["evidence"] = {};

  const rateLines = [...lines.filter((l) => /rate|night|tarif|price/i.test(l)), ...lines];
  for (const line of rateLines) {
    const money = moneyIn(line);
    if (!money) continue;
    terms.nightlyRate = money.amount;
    terms.currency = money.currency;
    evidence.nightlyRate = line;
    evidence.currency = line;
    break;
  }

  for (const line of lines) {
    const rooms = ROOMS_PATTERNS.map((p) => p.exec(line)).find(Boolean);
    if (!rooms) continue;
    terms.roomsPerNight = Number(rooms[1]);
    evidence.roomsPerNight = line;
    break;
  }

  const validityLines = [...lines.filter((l) => /valid|period|from|until|effective|term/i.test(l)), ...lines];
  const dated = validityLines
    .map((line) => ({ line, dates: datesIn(line) }))
    .filter(({ dates }) => dates.length > 0);
  const range = dated.find(({ dates }) => dates.length >= 2);
  if (range) {
    const [from, to] = [...range.dates.slice(0, 2)].sort();
    terms.validFrom = from;
    terms.validTo = to;
    evidence.validFrom = range.line;
    evidence.validTo = range.line;
  } else {
    const from = dated.find(({ line }) => /from|start|effective/i.test(line));
    const to = dated.find(({ line }) => /until|\bto\b|end|expir/i.test(line) && line !== from?.line);
    if (from) {
      terms.validFrom = from.dates[0]!;
      evidence.validFrom = from.line;
    }
    if (to) {
      terms.validTo = to.dates[0]!;
      evidence.validTo = to.line;
    }
  }
  return { terms, evidence, missing: FIELDS.filter((field) => terms[field] === undefined) };
}

function moneyIn(line: string): { amount: number; currency: string } | undefined {
  for (const { pattern, currency, amount } of MONEY_PATTERNS) {
    const match = pattern.exec(line);
    if (!match) continue;
    const code = SYMBOLS[match[currency]!] ?? match[currency]!;
    if (!CURRENCIES.has(code)) continue;
    const value = parseAmount(match[amount]!);
    if (value !== undefined && value > 0) return { amount: value, currency: code };
  }
  return undefined;
}

/** `1,234.50`, `1.234,50`, `1 234,50` and `129.00` all read as written. */
function parseAmount(text: string): number | undefined {
  const compact = text.replace(/\s/g, "");
  const decimal = /[.,](\d{1,2})$/.exec(compact);
  const whole = (decimal ? compact.slice(0, decimal.index) : compact).replace(/[.,]/g, "");
  const value = Number(decimal ? `${whole}.${decimal[1]}` : whole);
  return Number.isFinite(value) ? value : undefined;
}

function datesIn(line: string): string[] {
  const found: { at: number; date: string }[] = [];
  for (const { pattern, read } of DATE_PATTERNS) {
    pattern.lastIndex = 0;
    for (let match = pattern.exec(line); match; match = pattern.exec(line)) {
      const date = read(match);
      if (date) found.push({ at: match.index, date });
    }
  }
  return found.sort((a, b) => a.at - b.at).map((f) => f.date);
}

function monthNumber(name: string): string {
  const index = MONTHS.findIndex((month) => month.startsWith(name.toLowerCase().slice(0, 3)));
  return String(index + 1);
}

function isoDate(year: string, month: string, day: string): string | undefined {
  const iso = `${year}-${month.padStart(2, "0")}-${day.padStart(2, "0")}`;
  const parsed = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === iso ? iso : undefined;
}
