import type { ContractImageReader } from "../../src/vendors/contract-image-reader.js";
import { supervisors } from "../../src/http/access.js";
import { analyzeContractDocument } from "../../src/app/hotels/contract-document-analysis.js";
import type { ContractDocument } from "../../src/app/hotels/contracts.js";
import { pageAnswer, pageQuery } from "../../src/http/pagination.js";
import { defineRoute } from "../../src/http/route.js";
import {
  airportCodeSchema,
  localDateSchema,
  pageSchema,
  reasonSchema,
  timestampSchema,
  urnOf,
  urnSchema,
} from "../../src/http/schemas/common.js";
import { readFilePart } from "../cases/multipart-file.js";
import type { AllocationUseCases } from "./allocation-use-cases.js";

const tags = ["Contracts"] as const;

/** Contract documents are short; a larger upload is not a contract. */
const MAX_CONTRACT_BYTES = 5 * 1024 * 1024;

const termsProperties = {
  hotelUrn: { ...urnOf("hotel"), description: "A hotel of the catalog (GET /v1/hotels/list)" },
  nightlyRate: {
    type: "number",
    exclusiveMinimum: 0,
    maximum: 100_000,
    description: "One room for one night, in major units of `currency`",
  },
  currency: { type: "string", pattern: "^[A-Z]{3}$", description: "ISO 4217" },
  roomsPerNight: { type: "integer", minimum: 1, maximum: 10_000 },
  validFrom: { ...localDateSchema, description: "First night covered" },
  validTo: { ...localDateSchema, description: "Last night covered" },
  airports: {
    type: "array",
    minItems: 1,
    maxItems: 20,
    uniqueItems: true,
    items: airportCodeSchema,
    description: "Airports whose waves may use the contract; the hotel's airport among them",
  },
} as const;

const contractBody = {
  type: "object",
  required: ["hotelUrn", "nightlyRate", "currency", "roomsPerNight", "validFrom", "validTo", "airports"],
  properties: {
    urn: { ...urnOf("contract"), description: "Replace the terms of this contract; omit to create one" },
    ...termsProperties,
    reason: { ...reasonSchema, description: "Recorded in the audit entry" },
  },
} as const;

const contractSchema = {
  type: "object",
  required: [
    "urn",
    "tenant",
    "hotelUrn",
    "hotelName",
    "nightlyRate",
    "currency",
    "roomsPerNight",
    "validFrom",
    "validTo",
    "airports",
    "status",
    "version",
  ],
  properties: {
    urn: urnOf("contract"),
    tenant: urnSchema,
    hotelName: { type: "string" },
    ...termsProperties,
    status: { type: "string", enum: ["ACTIVE"] },
    version: { type: "integer", minimum: 1 },
    createdBy: urnSchema,
    createdAt: timestampSchema,
    updatedBy: urnSchema,
    updatedAt: timestampSchema,
    roomsTaken: {
      type: "object",
      description: "Rooms direct reservations hold under the contract, per night (YYYY-MM-DD)",
      additionalProperties: { type: "integer", minimum: 0 },
    },
  },
} as const;

const analysisSchema = {
  type: "object",
  required: ["method", "terms", "evidence", "missing"],
  properties: {
    method: {
      type: "string",
      enum: ["pdf-text", "ocr"],
      description: "pdf-text: the PDF's text layer; ocr: the text read from the image(s) by OCR",
    },
    textLines: { type: "integer" },
    confidence: {
      type: "object",
      description: "Read by OCR: the confidence (0 to 1) in the line each term was read from",
      additionalProperties: { type: "number", minimum: 0, maximum: 1 },
    },
    textConfidence: {
      type: "number",
      minimum: 0,
      maximum: 1,
      description: "Read by OCR: the confidence in the whole text",
    },
    terms: {
      type: "object",
      properties: {
        nightlyRate: { type: "number" },
        currency: { type: "string" },
        roomsPerNight: { type: "integer" },
        validFrom: localDateSchema,
        validTo: localDateSchema,
      },
    },
    evidence: {
      type: "object",
      description: "The line of text each term was read from",
      additionalProperties: { type: "string" },
    },
    missing: { type: "array", items: { type: "string" }, description: "Terms no pattern found" },
  },
} as const;

/** Each reservation's hold is booking's bookkeeping; the rooms taken per night are what a supervisor reads. */
function view({ _id, holds, ...contract }: ContractDocument) {
  return contract;
}

/** Direct hotel contracts (spec 4.1 Contracts). */
export function contractRoutes(allocation: AllocationUseCases, reader: ContractImageReader | undefined) {
  return [
    defineRoute({
      method: "GET",
      path: "/v1/contracts",
      operationId: "listContracts",
      summary: "Active direct hotel contracts of the airline (valid today or later)",
      tags,
      access: supervisors,
      query: pageQuery({ airport: airportCodeSchema }),
      responses: { 200: { description: "A page of contracts", schema: pageSchema(contractSchema) } },
      handler: ({ principal, query }) =>
        pageAnswer(
          query,
          (request) => allocation.contracts.activePage(principal, query.airport, request),
          view,
        ),
    }),
    defineRoute({
      method: "POST",
      path: "/v1/contracts",
      operationId: "saveContract",
      summary: "Create a direct hotel contract, or replace the terms of one",
      description:
        "A contract takes part in every allocation wave at its airports whose nights it covers, like any " +
        "vendor offer (the policy's gates apply), with its rooms per night less those other cases hold. The " +
        "wave records its saving against the cheapest vendor rate for the same hotel. Audited with before/after.",
      tags,
      access: supervisors,
      body: contractBody,
      responses: {
        201: { description: "The new contract", schema: contractSchema },
        200: { description: "The contract with its new terms", schema: contractSchema },
      },
      handler: async ({ principal, correlationUrn, body }) => {
        const { urn, reason, ...terms } = body;
        const { contract, created } = await allocation.contracts.save(
          { principal, correlationUrn, ...(reason ? { reason } : {}) },
          terms,
          urn,
        );
        return created
          ? { status: 201 as const, body: view(contract) }
          : { status: 200 as const, body: view(contract) };
      },
    }),
    defineRoute({
      method: "POST",
      path: "/v1/contracts/analyze-pdf",
      operationId: "analyzeContractPdf",
      summary: "Read contract terms from a PDF's text layer, or from a scan or photo by OCR",
      description:
        "Reads the text layer of a PDF, or the text of a scanned or photographed contract (PNG, JPEG, TIFF, " +
        "GIF or WebP, or a PDF of JPEG scans) by OCR (Tesseract, in the service), and matches it with patterns " +
        "for the nightly rate and currency, the validity dates and the rooms per night. No model interprets " +
        "the text: whatever the patterns do not find is listed in `missing`, and each found term comes with the " +
        "line it was read from (and, read by OCR, the confidence in that line), to be checked before creating " +
        "the contract. A format it cannot read is a 422. Nothing is stored.",
      tags,
      access: supervisors,
      upload: {
        contentType: "multipart/form-data",
        schema: {
          type: "object",
          required: ["file"],
          properties: {
            file: {
              type: "string",
              format: "binary",
              description: "The contract: a PDF (with a text layer, or of JPEG scans) or an image",
            },
          },
        },
      },
      idempotent: false,
      responses: { 200: { description: "The terms found, with evidence", schema: analysisSchema } },
      handler: async ({ ctx }) => ({
        status: 200,
        body: await analyzeContractDocument(await readFilePart(ctx, "file", MAX_CONTRACT_BYTES), reader),
      }),
    }),
  ];
}
