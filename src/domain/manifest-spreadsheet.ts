import ExcelJS from "exceljs";
import type { Passenger } from "./case.js";
import { DomainError } from "./domain-error.js";
import type { ManifestPassenger } from "./passenger-groups.js";
import { isTier, TIERS } from "./policy/tiers.js";

/**
 * Reading an uploaded passenger manifest (POST /cases/{urn}/passengers:bulk) from .csv or .xlsx
 * bytes. The spec leaves the template open; this file defines it. Header names are matched without
 * regard to case, spaces, dashes or underscores ("First Name" is firstName). Rows are numbered as a
 * spreadsheet shows them: the header is row 1. Every valid row is kept; each invalid row is left
 * out and reported once per bad field. Nothing here touches a disk or the network: exceljs reads
 * the workbook from the bytes in memory.
 */

export interface ManifestColumn {
  name: string;
  required: boolean;
  description: string;
  example: string;
}

export const MANIFEST_COLUMNS: readonly ManifestColumn[] = [
  {
    name: "pnr",
    required: true,
    description:
      "Booking reference, 5 to 8 letters or digits; passengers sharing it form one group by default",
    example: "ABC123",
  },
  {
    name: "passengerId",
    required: false,
    description: "Stable passenger id; default <pnr>-<n>, n counting the rows of that PNR in the file",
    example: "ABC123-1",
  },
  { name: "firstName", required: false, description: "Given name", example: "Ana" },
  { name: "lastName", required: true, description: "Family name, as used for PNR login", example: "Rivera" },
  { name: "tier", required: false, description: `One of ${TIERS.join(", ")}`, example: "ECONOMY" },
  { name: "cabinClass", required: false, description: "Cabin class as booked", example: "ECONOMY" },
  { name: "loyaltyTier", required: false, description: "Frequent-flyer tier", example: "STANDARD" },
  { name: "email", required: false, description: "E-mail address", example: "ana.rivera@example.com" },
  {
    name: "phone",
    required: false,
    description: "Phone number, international format",
    example: "+14155550100",
  },
  {
    name: "language",
    required: false,
    description: "Preferred language (BCP 47, e.g. en, pt-BR)",
    example: "en",
  },
  {
    name: "groupId",
    required: false,
    description: "Puts the passenger in this group instead of the PNR's group",
    example: "",
  },
];

export interface ManifestRow extends ManifestPassenger {
  /** Spreadsheet row number (the header is row 1). */
  row: number;
}

export interface ManifestError {
  row: number;
  field: string;
  message: string;
}

export interface ManifestParse {
  rows: ManifestRow[];
  errors: ManifestError[];
}

export type ManifestFormat = "csv" | "xlsx";

/** Reads a manifest; the format is taken from the bytes when not given (an .xlsx is a zip file). */
export async function parseManifest(
  bytes: Uint8Array,
  format: ManifestFormat = detectFormat(bytes),
): Promise<ManifestParse> {
  const table = format === "xlsx" ? await readXlsx(bytes) : readCsv(bytes);
  return readTable(table);
}

export function detectFormat(bytes: Uint8Array): ManifestFormat {
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0])) {
    throw new DomainError(
      "invalid",
      "unsupported-spreadsheet",
      "Legacy .xls files are not read: save the sheet as .xlsx or .csv",
    );
  }
  return startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) ? "xlsx" : "csv";
}

/** The template as CSV: the header row and one example row. */
export function manifestTemplateCsv(): string {
  return `${[MANIFEST_COLUMNS.map((c) => c.name), MANIFEST_COLUMNS.map((c) => c.example)]
    .map((line) => line.map(csvField).join(","))
    .join("\r\n")}\r\n`;
}

/** The template as a workbook: the header row and one example row. */
export async function manifestTemplateXlsx(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("manifest");
  sheet.addRow(MANIFEST_COLUMNS.map((c) => c.name));
  sheet.addRow(MANIFEST_COLUMNS.map((c) => c.example));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** Rows of cells as text, each with its spreadsheet row number. */
interface Table {
  lines: { row: number; cells: string[] }[];
}

const PNR = /^[A-Z0-9]{5,8}$/;
const IDENTIFIER = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9][0-9 ().-]{5,24}$/;
const LANGUAGE = /^[a-z]{2,3}(-[a-z0-9]{2,8})*$/i;
const CODE = /^[A-Z0-9_]{1,30}$/;
const MAX_NAME = 100;

function readTable(table: Table): ManifestParse {
  const [header, ...lines] = table.lines;
  if (!header)
    return { rows: [], errors: [{ row: 1, field: "header", message: "the manifest has no header row" }] };

  const errors: ManifestError[] = [];
  const columnAt = new Map<number, string>();
  header.cells.forEach((cell, index) => {
    const column = MANIFEST_COLUMNS.find((c) => normalizeHeader(c.name) === normalizeHeader(cell));
    if (column) columnAt.set(index, column.name);
    else if (cell.trim())
      errors.push({ row: header.row, field: cell.trim(), message: "unknown column, ignored" });
  });
  const present = new Set(columnAt.values());
  const missing = MANIFEST_COLUMNS.filter((c) => c.required && !present.has(c.name));
  if (missing.length > 0) {
    for (const column of missing)
      errors.push({ row: header.row, field: column.name, message: "required column is missing" });
    return { rows: [], errors };
  }

  const rows: ManifestRow[] = [];
  const rowsPerPnr = new Map<string, number>();
  const seenIds = new Set<string>();
  for (const line of lines) {
    const values: Record<string, string> = {};
    for (const [index, name] of columnAt) values[name] = (line.cells[index] ?? "").trim();
    if (Object.values(values).every((value) => value === "")) continue;
    const pnr = values.pnr!.toUpperCase();
    const ordinal = (rowsPerPnr.get(pnr) ?? 0) + 1;
    if (pnr) rowsPerPnr.set(pnr, ordinal);
    const lineErrors: ManifestError[] = [];
    const fail = (field: string, message: string) => lineErrors.push({ row: line.row, field, message });

    if (!pnr) fail("pnr", "is required");
    else if (!PNR.test(pnr)) fail("pnr", "must be 5 to 8 letters or digits");
    const explicitId = values.passengerId ?? "";
    const passengerId = explicitId || `${pnr}-${ordinal}`;
    if (explicitId && !IDENTIFIER.test(explicitId)) {
      fail("passengerId", "must be letters, digits, '.', '_' or '-' (at most 64)");
    } else if (seenIds.has(passengerId)) fail("passengerId", `repeats ${passengerId}`);
    const lastName = values.lastName ?? "";
    if (!lastName) fail("lastName", "is required");
    else if (lastName.length > MAX_NAME) fail("lastName", `is longer than ${MAX_NAME} characters`);
    const firstName = values.firstName ?? "";
    if (firstName.length > MAX_NAME) fail("firstName", `is longer than ${MAX_NAME} characters`);
    const tier = code(values.tier);
    if (tier && !isTier(tier)) fail("tier", `must be one of ${TIERS.join(", ")}`);
    const cabinClass = code(values.cabinClass);
    if (cabinClass && !CODE.test(cabinClass)) fail("cabinClass", "must be a code of letters, digits or '_'");
    const loyaltyTier = code(values.loyaltyTier);
    if (loyaltyTier && !CODE.test(loyaltyTier))
      fail("loyaltyTier", "must be a code of letters, digits or '_'");
    const email = values.email ?? "";
    if (email && !EMAIL.test(email)) fail("email", "is not an e-mail address");
    const phone = values.phone ?? "";
    if (phone && !PHONE.test(phone)) fail("phone", "is not a phone number");
    const language = values.language ?? "";
    if (language && !LANGUAGE.test(language)) fail("language", "is not a language tag such as en or pt-BR");
    const groupId = values.groupId ?? "";
    if (groupId && !IDENTIFIER.test(groupId))
      fail("groupId", "must be letters, digits, '.', '_' or '-' (at most 64)");

    if (lineErrors.length > 0) {
      errors.push(...lineErrors);
      continue;
    }
    seenIds.add(passengerId);
    const contact = {
      ...(email ? { email } : {}),
      ...(phone ? { phone } : {}),
      ...(language ? { language } : {}),
    };
    const passenger: Passenger = {
      id: passengerId,
      ...(firstName ? { firstName } : {}),
      lastName,
      ...(tier ? { tier } : {}),
      ...(cabinClass ? { cabinClass } : {}),
      ...(loyaltyTier ? { loyaltyTier } : {}),
      ...(Object.keys(contact).length > 0 ? { contact } : {}),
    };
    rows.push({ row: line.row, pnr, ...(groupId ? { groupId } : {}), passenger });
  }
  return { rows, errors };
}

function normalizeHeader(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/** Codes are written in upper case with underscores: "Premium economy" reads as PREMIUM_ECONOMY. */
function code(value: string | undefined): string {
  return (value ?? "").toUpperCase().replace(/[\s-]+/g, "_");
}

async function readXlsx(bytes: Uint8Array): Promise<Table> {
  const workbook = new ExcelJS.Workbook();
  try {
    // A copy with its own ArrayBuffer: the type exceljs declares, and safe from a pooled Buffer.
    await workbook.xlsx.load(new Uint8Array(bytes).buffer);
  } catch {
    throw new DomainError("invalid", "unreadable-spreadsheet", "The file is not a readable .xlsx workbook");
  }
  const sheet = workbook.worksheets[0];
  const lines: Table["lines"] = [];
  sheet?.eachRow((row, rowNumber) => {
    // row.values is 1-based: index 0 is always empty.
    const values = (row.values as ExcelJS.CellValue[]).slice(1);
    lines.push({ row: rowNumber, cells: Array.from(values, cellText) });
  });
  return { lines };
}

function cellText(value: ExcelJS.CellValue | undefined): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (value instanceof Date) return value.toISOString();
  if ("richText" in value) return value.richText.map((run) => run.text).join("");
  if ("hyperlink" in value) return cellText(value.text as ExcelJS.CellValue);
  if ("formula" in value || "sharedFormula" in value) return cellText(value.result as ExcelJS.CellValue);
  return "";
}

/**
 * CSV as RFC 4180 writes it, and as spreadsheet programs export it: quoted fields may hold the
 * delimiter, line breaks and doubled quotes; lines end in CRLF, LF or CR; a UTF-8 byte-order mark
 * is dropped. The delimiter is the one of comma, semicolon or tab found most in the header line,
 * since some locales export with semicolons.
 */
function readCsv(bytes: Uint8Array): Table {
  const text = new TextDecoder("utf-8").decode(bytes).replace(/^\uFEFF/, "");
  const delimiter = detectDelimiter(text);
  const lines: Table["lines"] = [];
  let cells: string[] = [];
  let field = "";
  let quoted = false;
  let fieldStarted = false;
  const endField = () => {
    cells.push(field);
    field = "";
    fieldStarted = false;
  };
  const endLine = () => {
    endField();
    lines.push({ row: lines.length + 1, cells });
    cells = [];
  };
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char !== '"') field += char;
      else if (text[i + 1] === '"') {
        field += '"';
        i++;
      } else quoted = false;
    } else if (char === '"' && !fieldStarted) {
      quoted = true;
      fieldStarted = true;
    } else if (char === delimiter) endField();
    else if (char === "\r" || char === "\n") {
      if (char === "\r" && text[i + 1] === "\n") i++;
      endLine();
    } else {
      field += char;
      fieldStarted = true;
    }
  }
  if (quoted) {
    throw new DomainError(
      "invalid",
      "unreadable-spreadsheet",
      `The CSV has an unclosed quote in row ${lines.length + 1}`,
    );
  }
  if (fieldStarted || cells.length > 0) endLine();
  return { lines };
}

function detectDelimiter(text: string): string {
  const firstLine = text.split(/\r\n|\n|\r/, 1)[0] ?? "";
  const counts = [",", ";", "\t"].map((d) => [d, firstLine.split(d).length - 1] as const);
  const [best] = [...counts].sort((a, b) => b[1] - a[1]);
  return best && best[1] > 0 ? best[0] : ",";
}

function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((byte, index) => bytes[index] === byte);
}
