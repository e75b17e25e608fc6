import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import {
  detectFormat,
  MANIFEST_COLUMNS,
  manifestTemplateCsv,
  manifestTemplateXlsx,
  parseManifest,
} from "../../src/domain/manifest-spreadsheet.js";
import { rejection } from "../support/refusal.js";

const bytes = (text: string) => new TextEncoder().encode(text);

async function xlsx(rows: ExcelJS.CellValue[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("manifest");
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describe("manifest from CSV", () => {
  it("reads quoted fields, doubled quotes, embedded line breaks and CRLF, with case-insensitive headers", async () => {
    const csv = [
      "PNR,First Name,last_name,TIER,email,Phone,language",
      'abc123,Ana,"Rivera, Jr.",economy,ana@example.com,+1 415 555 0100,pt-BR',
      'ABC123,"Luis ""Lu""",Rivera,,,,',
      'XYZ789,"Multi',
      'line",Okafor,Premium Economy,,+447700900123,en',
      "",
    ].join("\r\n");
    const { rows, errors } = await parseManifest(bytes(csv));
    expect(errors).toEqual([]);
    expect(rows).toEqual([
      {
        row: 2,
        pnr: "ABC123",
        passenger: {
          id: "ABC123-1",
          firstName: "Ana",
          lastName: "Rivera, Jr.",
          tier: "ECONOMY",
          contact: { email: "ana@example.com", phone: "+1 415 555 0100", language: "pt-BR" },
        },
      },
      { row: 3, pnr: "ABC123", passenger: { id: "ABC123-2", firstName: 'Luis "Lu"', lastName: "Rivera" } },
      {
        row: 4,
        pnr: "XYZ789",
        passenger: {
          id: "XYZ789-1",
          firstName: "Multi\r\nline",
          lastName: "Okafor",
          tier: "PREMIUM_ECONOMY",
          contact: { phone: "+447700900123", language: "en" },
        },
      },
    ]);
  });

  it("keeps the valid rows and reports each bad field of the others", async () => {
    const csv = [
      "pnr,passengerId,firstName,lastName,tier,cabinClass,loyaltyTier,email,phone,language,groupId,seat",
      "ABC123,,Ana,Rivera,ECONOMY,ECONOMY,STANDARD,ana@example.com,,en,,12A",
      "AB,,Bo,,GOLD,,,not-an-email,call me,english,bad group,",
      ",,,,,,,,,,,",
      "XYZ789,dup,Cy,Okafor,CREW,,,,,,crew-1,",
      "DEF456,dup,Di,Okafor,CREW,,,,,,crew-1,",
      "QQQ111,,Ed,Smith,,,,,,,,",
    ].join("\n");
    const { rows, errors } = await parseManifest(bytes(csv), "csv");
    expect(rows.map((r) => [r.row, r.passenger.id, r.groupId])).toEqual([
      [2, "ABC123-1", undefined],
      [5, "dup", "crew-1"],
      [7, "QQQ111-1", undefined],
    ]);
    expect(rows[0]?.passenger).toMatchObject({ cabinClass: "ECONOMY", loyaltyTier: "STANDARD" });
    expect(errors).toEqual([
      { row: 1, field: "seat", message: "unknown column, ignored" },
      { row: 3, field: "pnr", message: expect.any(String) },
      { row: 3, field: "lastName", message: "is required" },
      { row: 3, field: "tier", message: expect.any(String) },
      { row: 3, field: "email", message: expect.any(String) },
      { row: 3, field: "phone", message: expect.any(String) },
      { row: 3, field: "language", message: expect.any(String) },
      { row: 3, field: "groupId", message: expect.any(String) },
      { row: 6, field: "passengerId", message: "repeats dup" },
    ]);
  });

  it("blames a bad PNR on the PNR, not on the passenger id derived from it", async () => {
    const { errors } = await parseManifest(
      bytes("pnr,lastName,passengerId\nAB C12,Rivera,\nABC123,Rivera,-x\n"),
    );
    expect(errors).toEqual([
      { row: 2, field: "pnr", message: expect.any(String) },
      { row: 3, field: "passengerId", message: expect.any(String) },
    ]);
  });

  it("reads semicolon-separated exports and drops a byte-order mark", async () => {
    const { rows, errors } = await parseManifest(
      bytes("\uFEFFpnr;lastName;email\nABC123;Rivera;a@example.com\n"),
    );
    expect(errors).toEqual([]);
    expect(rows[0]).toMatchObject({
      pnr: "ABC123",
      passenger: { lastName: "Rivera", contact: { email: "a@example.com" } },
    });
  });

  it("reports missing required columns and reads no rows", async () => {
    const { rows, errors } = await parseManifest(bytes("firstName,email\nAna,a@example.com\n"));
    expect(rows).toEqual([]);
    expect(errors).toEqual([
      { row: 1, field: "pnr", message: "required column is missing" },
      { row: 1, field: "lastName", message: "required column is missing" },
    ]);
  });

  it("reports an empty file and refuses an unclosed quote", async () => {
    expect((await parseManifest(bytes(""))).errors).toEqual([
      { row: 1, field: "header", message: "the manifest has no header row" },
    ]);
    const error = await rejection(parseManifest(bytes('pnr,lastName\nABC123,"Rivera\n')));
    expect(error.code).toBe("unreadable-spreadsheet");
  });
});

describe("manifest from .xlsx", () => {
  it("reads a workbook built with exceljs, including hyperlinked e-mails and numeric phones", async () => {
    const file = await xlsx([
      ["PNR", "lastName", "firstName", "Tier", "email", "phone", "groupId"],
      [
        "abc123",
        "Rivera",
        "Ana",
        "business",
        { text: "ana@example.com", hyperlink: "mailto:ana@example.com" },
        14155550100,
        "",
      ],
      ["ABC123", { richText: [{ text: "Ri" }, { text: "vera" }] }, "Luis", "FIRST", null, null, "fam"],
      [],
      ["XYZ789", "", "Bo", "ECONOMY", null, null, null],
      ["XYZ789", "Okafor", "Cy", "ECONOMY", "bad@", null, null],
      ["DEF456", "Smith", "Di", "CREW", null, null, null],
    ]);
    expect(detectFormat(file)).toBe("xlsx");
    const { rows, errors } = await parseManifest(file);
    expect(rows).toEqual([
      {
        row: 2,
        pnr: "ABC123",
        passenger: {
          id: "ABC123-1",
          firstName: "Ana",
          lastName: "Rivera",
          tier: "BUSINESS",
          contact: { email: "ana@example.com", phone: "14155550100" },
        },
      },
      {
        row: 3,
        pnr: "ABC123",
        groupId: "fam",
        passenger: { id: "ABC123-2", firstName: "Luis", lastName: "Rivera", tier: "FIRST" },
      },
      {
        row: 7,
        pnr: "DEF456",
        passenger: { id: "DEF456-1", firstName: "Di", lastName: "Smith", tier: "CREW" },
      },
    ]);
    expect(errors).toEqual([
      { row: 5, field: "lastName", message: "is required" },
      { row: 6, field: "email", message: "is not an e-mail address" },
    ]);
  });

  it("refuses bytes that look like a workbook but are not one, and legacy .xls", async () => {
    const broken = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4]);
    expect((await rejection(parseManifest(broken))).code).toBe("unreadable-spreadsheet");
    expect((await rejection(parseManifest(new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0])))).code).toBe(
      "unsupported-spreadsheet",
    );
  });
});

describe("manifest template", () => {
  it("documents every column once, pnr and lastName required", () => {
    const names = MANIFEST_COLUMNS.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    expect(MANIFEST_COLUMNS.filter((c) => c.required).map((c) => c.name)).toEqual(["pnr", "lastName"]);
  });

  it.each([
    ["csv", async () => bytes(manifestTemplateCsv())],
    ["xlsx", manifestTemplateXlsx],
  ] as const)("the %s template parses to its example row without errors", async (_format, template) => {
    const { rows, errors } = await parseManifest(await template());
    expect(errors).toEqual([]);
    expect(rows).toEqual([
      {
        row: 2,
        pnr: "ABC123",
        passenger: {
          id: "ABC123-1",
          firstName: "Ana",
          lastName: "Rivera",
          tier: "ECONOMY",
          cabinClass: "ECONOMY",
          loyaltyTier: "STANDARD",
          contact: { email: "ana.rivera@example.com", phone: "+14155550100", language: "en" },
        },
      },
    ]);
  });
});
