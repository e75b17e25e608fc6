import { contractJpeg, contractPng, renderedSize, scannedJpegPdf } from "../support/rendered-contract.js";
import { deflateSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { simulatorsOf } from "../support/container.js";
import { urn } from "../../src/domain/urn.js";
import { allocationPlatform, enc } from "./allocation-fixture.js";
import { json } from "../support/responses.js";

let p: Awaited<ReturnType<typeof allocationPlatform>>;
let supervisor: string;
/** A 3-star-or-better hotel near JFK (passes the demo policy) that several vendors sell. */
let hotelUrn: string;

beforeAll(async () => {
  p = await allocationPlatform();
  supervisor = await p.token("supervisor@zx.demo");
  const jfk = simulatorsOf(p.t.platform).catalog.atAirport("JFK");
  const hotel = jfk
    .filter((h) => (h.stars ?? 0) >= 3 && h.distanceKm < 10 && h.vendors.length >= 2)
    .sort((a, b) => a.distanceKm - b.distanceKm)[0]!;
  hotelUrn = urn("hotel", hotel.propertyCode);
});
afterAll(async () => {
  await p?.t.close();
});

const terms = () => ({
  hotelUrn,
  nightlyRate: 45,
  currency: "USD",
  roomsPerNight: 40,
  validFrom: "2026-01-01",
  validTo: "2026-12-31",
  airports: ["JFK"],
});

describe("direct contracts (GET/POST /v1/contracts)", () => {
  let contract: any;
  /** The case of the wave test, and the allocations its wave made under the contract. */
  let housed: { caseUrn: string; direct: any[] };

  beforeAll(async () => {
    contract = await json(
      await p.t.call("POST", "/v1/contracts", supervisor, { ...terms(), reason: "2026 deal" }),
      201,
    );
  });

  it("creates a contract with a catalog hotel, lists it, and replaces its terms by URN", async () => {
    expect(contract).toMatchObject({ ...terms(), tenant: "urn:airline:ZX", status: "ACTIVE", version: 1 });
    expect(contract.urn).toMatch(/^urn:contract:/);
    expect(contract.hotelName).toEqual(expect.any(String));

    const listed = await json(await p.t.call("GET", "/v1/contracts?airport=JFK", supervisor), 200);
    expect(listed.items.map((c: any) => c.urn)).toContain(contract.urn);
    const elsewhere = await json(await p.t.call("GET", "/v1/contracts?airport=BOS", supervisor), 200);
    expect(elsewhere.items.map((c: any) => c.urn)).not.toContain(contract.urn);
    const vq = await json(await p.t.call("GET", "/v1/contracts", await p.token("supervisor@vq.demo")), 200);
    expect(vq.items).toEqual([]);

    const changed = await json(
      await p.t.call("POST", "/v1/contracts", supervisor, {
        ...terms(),
        urn: contract.urn,
        roomsPerNight: 60,
      }),
      200,
    );
    expect(changed).toMatchObject({ urn: contract.urn, roomsPerNight: 60, version: 2 });
    await json(await p.t.call("POST", "/v1/contracts", supervisor, { ...terms(), urn: contract.urn }), 200);

    const trail = await json(await p.t.call("GET", `/v1/audit/entity/${enc(contract.urn)}`, supervisor), 200);
    const actions = trail.items.map((e: any) => e.action);
    expect(actions).toEqual(expect.arrayContaining(["contract.create", "contract.update"]));
    const update = trail.items.find((e: any) => e.action === "contract.update");
    expect(update.before).toMatchObject({ roomsPerNight: 40, version: 1 });
    expect(update.after).toMatchObject({ roomsPerNight: 60, version: 2 });
  });

  it("takes part in waves like any offer, and the wave records what it saved against the market", async () => {
    const { urn: caseUrn } = await p.openCase("JFK", [["ECONOMY", "ECONOMY"], ["ECONOMY"]]);
    const completed = await p.eventOf("allocation.wave-completed", caseUrn);
    const wave = await json(
      await p.t.call("GET", `/allocation/wave/${enc(completed.data.waveUrn)}`, supervisor),
      200,
    );
    const direct = wave.allocations.filter((a: any) => a.providerOfferId === contract.urn);
    expect(direct.length).toBeGreaterThan(0);
    housed = { caseUrn, direct };
    const hotel = wave.hotels.find((h: any) => h.hotelUrn === hotelUrn);
    const contractOffer = hotel.offers.find((o: any) => o.providerOfferId === contract.urn);
    const market = contractOffer.marketNightlyRate.amountMinor;
    expect(market).toBe(
      Math.min(
        ...hotel.offers
          .filter((o: any) => !o.isDirectContract)
          .map((o: any) => o.convertedNightlyRate.amountMinor),
      ),
    );
    for (const allocation of direct) {
      expect(allocation).toMatchObject({ vendor: "direct-contract", isDirectContract: true, hotelUrn });
      expect(allocation.nightlyRate).toEqual({ amountMinor: 4_500, currency: "USD" });
      expect(allocation.savingsVsMarket.amountMinor).toBe(
        (market - 4_500) * allocation.rooms * allocation.nights,
      );
    }
    const saved = direct.reduce((sum: number, a: any) => sum + a.savingsVsMarket.amountMinor, 0);
    expect(wave.savingsVsMarket).toEqual({ amountMinor: saved, currency: "USD" });
    expect(saved).toBeGreaterThan(0);
  });

  it("books what the wave allocated under it as direct reservations, taking the rooms from the contract", async () => {
    const { caseUrn, direct } = housed;
    const reservationsOf = async () =>
      (await json(await p.t.call("GET", `/v1/booking/cases/${enc(caseUrn)}/reservations`, supervisor), 200))
        .items as any[];
    await vi.waitFor(
      async () => {
        const groups = direct.map((a) => a.groupId);
        const confirmed = (await reservationsOf()).filter(
          (r) => r.status === "CONFIRMED" && groups.includes(r.groupId),
        );
        expect(confirmed.map((r) => r.groupId).sort()).toEqual(groups.sort());
      },
      { timeout: 15_000, interval: 50 },
    );
    for (const allocation of direct) {
      const reservation = (await reservationsOf()).find((r) => r.groupId === allocation.groupId);
      expect(reservation.urn).toBe(
        `urn:reservation:${reservation.id}:vendor:direct-contract:status:confirmed`,
      );
      expect(reservation).toMatchObject({
        vendor: "direct-contract",
        providerOfferId: contract.urn,
        hotel: { hotelUrn },
        rooms: allocation.rooms,
        checkIn: allocation.checkIn,
        checkOut: allocation.checkOut,
        payment: "GUARANTEE",
        cost: { amountMinor: 4_500 * allocation.rooms * allocation.nights, currency: "USD" },
      });
      const voucher = await p.t.call(
        "GET",
        `/v1/booking/reservations/${enc(reservation.urn)}/voucher/html`,
        supervisor,
      );
      expect(voucher.status).toBe(200);
      expect(await voucher.text()).toContain(reservation.confirmationNumber);
    }

    const [listed] = (
      await json(await p.t.call("GET", "/v1/contracts?airport=JFK", supervisor), 200)
    ).items.filter((c: any) => c.urn === contract.urn);
    const taken: Record<string, number> = {};
    for (const allocation of direct) {
      for (let night = 0; night < allocation.nights; night++) {
        const date = new Date(Date.parse(allocation.checkIn) + night * 86_400_000).toISOString().slice(0, 10);
        taken[date] = (taken[date] ?? 0) + allocation.rooms;
      }
    }
    expect(listed.roomsTaken).toEqual(taken);
    expect(listed.holds).toBeUndefined();
  });

  it.each([
    ["a hotel not in the catalog", { hotelUrn: "urn:hotel:GP0000000" }, "unknown-hotel"],
    ["an airport the airline does not serve", { airports: ["JFK", "LHR"] }, "airport-not-served"],
    ["airports without the hotel's", { airports: ["BOS"] }, "hotel-not-at-airport"],
    ["an end before the start", { validFrom: "2026-06-01", validTo: "2026-05-31" }, "invalid-validity"],
    ["a currency the rate table lacks", { currency: "JPY" }, "unsupported-currency"],
  ])("refuses %s with 422", async (_, change, code) => {
    const problem = await json(
      await p.t.call("POST", "/v1/contracts", supervisor, { ...terms(), ...change }),
      422,
    );
    expect(problem.type).toMatch(new RegExp(`${code}$`));
  });

  it.each([
    ["no rate", { nightlyRate: undefined }, "/nightlyRate"],
    ["a zero rate", { nightlyRate: 0 }, "/nightlyRate"],
    ["no rooms", { roomsPerNight: 0 }, "/roomsPerNight"],
    ["a date that is no date", { validFrom: "01/01/2026" }, "/validFrom"],
    ["no airports", { airports: [] }, "/airports"],
    ["a lower-case currency", { currency: "usd" }, "/currency"],
    ["an unknown field", { discount: 5 }, "/discount"],
  ])("refuses a body with %s", async (_, change, field) => {
    const problem = await json(
      await p.t.call("POST", "/v1/contracts", supervisor, { ...terms(), ...change }),
      400,
    );
    expect(problem.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it("is for supervisors of the contract's airline", async () => {
    await json(await p.t.call("GET", "/v1/contracts", await p.token("operator@zx.demo")), 403);
    await json(await p.t.call("GET", "/v1/contracts?airport=jfk", supervisor), 400);
    await json(await p.t.call("POST", "/v1/contracts", await p.token("operator@zx.demo"), terms()), 403);
    await json(await p.t.call("POST", "/v1/contracts", await p.token("finance@zx.demo"), terms()), 403);
    await json(
      await p.t.call("POST", "/v1/contracts", await p.token("supervisor@vq.demo"), {
        ...terms(),
        urn: contract.urn,
        airports: ["LHR"],
      }),
      403,
    );
    await json(
      await p.t.call("POST", "/v1/contracts", supervisor, {
        ...terms(),
        urn: "urn:contract:00000000-0000-0000-0000-000000000000",
      }),
      404,
    );
  });
});

/** A one-page PDF whose page shows `lines`, its content stream compressed or not. */
function pdf(lines: string[], compressed: boolean): Uint8Array {
  const escaped = (text: string) => text.replace(/[\\()]/g, (c) => `\\${c}`);
  const content = `BT /F1 11 Tf 72 720 Td ${lines.map((l) => `(${escaped(l)}) Tj 0 -14 Td`).join(" ")} ET`;
  const data = compressed ? deflateSync(Buffer.from(content, "latin1")).toString("latin1") : content;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${Buffer.byteLength(data, "latin1")}${compressed ? " /Filter /FlateDecode" : ""} >>\nstream\n${data}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  const body = objects.map((o, i) => `${i + 1} 0 obj\n${o}\nendobj\n`).join("");
  return Buffer.from(`%PDF-1.4\n${body}trailer\n<< /Root 1 0 R >>\n%%EOF\n`, "latin1");
}

/** A PDF whose only page content is a scanned image: no text layer. */
function scannedPdf(): Uint8Array {
  const pixels = Buffer.alloc(64, 0x80).toString("latin1");
  return Buffer.from(
    "%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n" +
      `2 0 obj\n<< /Type /XObject /Subtype /Image /Width 8 /Height 8 /BitsPerComponent 8 /ColorSpace /DeviceGray /Length 64 >>\nstream\n${pixels}\nendstream\nendobj\n` +
      "3 0 obj\n<< /Length 20 >>\nstream\nq 8 0 0 8 0 0 cm /Im1 Do Q\nendstream\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n",
    "latin1",
  );
}

async function analyze(bytes: Uint8Array, who = "supervisor@zx.demo", field = "file"): Promise<Response> {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(bytes)]), "contract.pdf");
  return fetch(`${p.t.base}/v1/contracts/analyze-pdf`, {
    method: "POST",
    headers: { Authorization: `Bearer ${await p.token(who)}` },
    body: form,
  });
}

describe("POST /v1/contracts/analyze-pdf", () => {
  const contractText = [
    "Direct rate agreement between Zephyr Air and The Linden Hotel",
    "Nightly rate: GBP 1,129.50 per room per night, breakfast included",
    "Allotment: 25 rooms per night",
    "Valid from 1 March 2026 until 31 October 2026",
  ];

  it.each([
    ["an uncompressed", false],
    ["a Flate-compressed", true],
  ])(
    "reads rate, currency, rooms and validity from %s text PDF, with the line each came from",
    async (_, compressed) => {
      const result = await json(await analyze(pdf(contractText, compressed)), 200);
      expect(result).toMatchObject({
        method: "pdf-text",
        terms: {
          nightlyRate: 1129.5,
          currency: "GBP",
          roomsPerNight: 25,
          validFrom: "2026-03-01",
          validTo: "2026-10-31",
        },
        missing: [],
      });
      expect(result.evidence.nightlyRate).toBe(contractText[1]);
      expect(result.evidence.validTo).toBe(contractText[3]);
    },
  );

  it("reports the terms it could not find rather than guessing", async () => {
    const result = await json(
      await analyze(pdf(["Rate: 89.00 USD per night", "Effective 2026-04-01"], false)),
      200,
    );
    expect(result.terms).toEqual({ nightlyRate: 89, currency: "USD", validFrom: "2026-04-01" });
    expect(result.missing).toEqual(["roomsPerNight", "validTo"]);
  });

  it("reads a photographed or scanned contract by OCR, with the confidence of each term's line", async () => {
    for (const [kind, bytes] of [
      ["PNG", contractPng(contractText)],
      ["JPEG", contractJpeg(contractText)],
    ] as const) {
      const result = await json(await analyze(bytes), 200);
      expect(result, kind).toMatchObject({
        method: "ocr",
        terms: {
          nightlyRate: 1129.5,
          currency: "GBP",
          roomsPerNight: 25,
          validFrom: "2026-03-01",
          validTo: "2026-10-31",
        },
        missing: [],
      });
      expect(result.evidence.roomsPerNight, kind).toBe(contractText[2]);
      for (const field of ["nightlyRate", "currency", "roomsPerNight", "validFrom", "validTo"]) {
        expect(result.confidence[field], `${kind} ${field}`).toBeGreaterThan(0.8);
        expect(result.confidence[field]).toBeLessThanOrEqual(1);
      }
      expect(result.textConfidence).toBeGreaterThan(0.8);
    }
    // A PDF of scanned pages has no text layer: its JPEG pages are read instead.
    const { width, height } = renderedSize(contractText);
    const scannedPdfResult = await json(
      await analyze(scannedJpegPdf(contractJpeg(contractText), width, height)),
      200,
    );
    expect(scannedPdfResult).toMatchObject({ method: "ocr", missing: [], terms: { roomsPerNight: 25 } });
  });

  it("refuses what it cannot read: an image format OCR does not take, a scan with no page it can read, not a PDF", async () => {
    const heic = new Uint8Array([0, 0, 0, 24, 0x66, 0x74, 0x79, 0x70, 0x68, 0x65, 0x69, 0x63]);
    const image = await json(await analyze(heic), 422);
    expect(image.type).toMatch(/ocr-not-available$/);
    expect(image.detail).toMatch(/HEIC/);
    const scan = await json(await analyze(scannedPdf()), 422);
    expect(scan.type).toMatch(/no-text-layer$/);
    const text = await json(await analyze(Buffer.from("just some text")), 422);
    expect(text.type).toMatch(/not-a-pdf$/);
  });

  it("refuses non-supervisors, a missing file part and a body that is not multipart", async () => {
    await json(await analyze(pdf(contractText, false), "operator@zx.demo"), 403);
    await json(await analyze(pdf(contractText, false), "supervisor@zx.demo", "document"), 400);
    const raw = await fetch(`${p.t.base}/v1/contracts/analyze-pdf`, {
      method: "POST",
      headers: { Authorization: `Bearer ${supervisor}`, "Content-Type": "application/pdf" },
      body: new Uint8Array(pdf(contractText, false)),
    });
    await json(raw, 415);
  });
});
