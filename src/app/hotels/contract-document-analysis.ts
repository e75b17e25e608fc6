import { DomainError } from "../../domain/domain-error.js";
import type { ContractImageReader } from "../../vendors/contract-image-reader.js";
import { extractContractTerms, type TermField, type TermsExtraction } from "./contract-terms.js";
import { isPdf, pdfJpegImages, pdfText } from "./pdf-text.js";

/** Leading bytes of the image formats a scanned contract arrives in. */
const IMAGE_SIGNATURES: readonly { format: string; bytes: readonly number[]; at?: number }[] = [
  { format: "PNG", bytes: [0x89, 0x50, 0x4e, 0x47] },
  { format: "JPEG", bytes: [0xff, 0xd8, 0xff] },
  { format: "GIF", bytes: [0x47, 0x49, 0x46, 0x38] },
  { format: "TIFF", bytes: [0x49, 0x49, 0x2a, 0x00] },
  { format: "TIFF", bytes: [0x4d, 0x4d, 0x00, 0x2a] },
  { format: "WEBP", bytes: [0x57, 0x45, 0x42, 0x50], at: 8 },
  { format: "HEIC", bytes: [0x66, 0x74, 0x79, 0x70], at: 4 },
];

/** Image formats Tesseract reads; others (HEIC) are refused. */
const READABLE_IMAGES: ReadonlySet<string> = new Set(["PNG", "JPEG", "GIF", "TIFF", "WEBP"]);

export type ContractDocumentAnalysis = TermsExtraction & {
  /** Lines of text read, for the supervisor to compare with the terms. */
  textLines: number;
} & (
    | { method: "pdf-text" }
    | {
        method: "ocr";
        /** The reader's confidence (0 to 1) in the line each term was read from. */
        confidence: Partial<Record<TermField, number>>;
        /** Its confidence in the whole text read. */
        textConfidence: number;
      }
  );

/**
 * POST /v1/contracts/analyze-pdf: terms read from a contract document without a model. A PDF with
 * a text layer is read (pdf-text.ts); a scan or a photo is read by OCR (the reader bound in the
 * composition root), with the confidence of each term's line. The text is matched against
 * patterns (contract-terms.ts); whatever they do not find is reported missing, never guessed.
 */
export async function analyzeContractDocument(
  bytes: Uint8Array,
  reader: ContractImageReader | undefined,
): Promise<ContractDocumentAnalysis> {
  const image = IMAGE_SIGNATURES.find(({ bytes: signature, at = 0 }) =>
    signature.every((byte, i) => bytes[at + i] === byte),
  );
  if (image) {
    if (!reader || !READABLE_IMAGES.has(image.format)) {
      throw new DomainError(
        "unprocessable",
        "ocr-not-available",
        `This is a ${image.format} image, which this service cannot read; upload a PDF with a text layer, a PNG, JPEG or TIFF scan, or enter the terms by hand.`,
        { format: image.format },
      );
    }
    return readImage(bytes, reader);
  }
  if (!isPdf(bytes)) {
    throw new DomainError("unprocessable", "not-a-pdf", "The file is neither a PDF nor an image");
  }
  const text = pdfText(bytes);
  if (text) return { method: "pdf-text", textLines: text.split("\n").length, ...extractContractTerms(text) };
  // A scanned PDF: its pages are JPEG images the PDF carries as they are (DCTDecode).
  const scans = reader ? pdfJpegImages(bytes) : [];
  if (scans.length === 0 || !reader) {
    throw new DomainError(
      "unprocessable",
      "no-text-layer",
      "The PDF has no readable text layer and no scanned page this service can read; no terms can be read from it",
    );
  }
  return readImage(scans[0] as Uint8Array, reader, scans);
}

async function readImage(
  bytes: Uint8Array,
  reader: ContractImageReader,
  pages: readonly Uint8Array[] = [bytes],
): Promise<ContractDocumentAnalysis> {
  const lines = (await Promise.all(pages.map((page) => reader.read(page)))).flat();
  const text = lines.map((line) => line.text).join("\n");
  const extraction = extractContractTerms(text);
  const confidence: Partial<Record<TermField, number>> = {};
  for (const [field, evidence] of Object.entries(extraction.evidence) as [TermField, string][]) {
    const line = lines.find((l) => l.text === evidence);
    if (line) confidence[field] = Math.round(line.confidence) / 100;
  }
  const textConfidence =
    lines.length === 0 ? 0 : Math.round(lines.reduce((sum, l) => sum + l.confidence, 0) / lines.length) / 100;
  return { method: "ocr", textLines: lines.length, ...extraction, confidence, textConfidence };
}
