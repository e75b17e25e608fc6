import { DomainError } from "../../domain/domain-error.js";
import { extractContractTerms, type TermsExtraction } from "./contract-terms.js";
import { isPdf, pdfText } from "./pdf-text.js";

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

export interface ContractDocumentAnalysis extends TermsExtraction {
  method: "pdf-text";
  /** Lines of text the PDF holds, for the supervisor to compare with the terms. */
  textLines: number;
}

/**
 * POST /v1/contracts/analyze-pdf: terms read from a contract document without a model. A PDF with
 * a text layer is read (pdf-text.ts) and its text matched against patterns (contract-terms.ts).
 * Images and scanned PDFs are refused: this service has no OCR, and inventing terms would be worse.
 */
export function analyzeContractDocument(bytes: Uint8Array): ContractDocumentAnalysis {
  const image = IMAGE_SIGNATURES.find(({ bytes: signature, at = 0 }) =>
    signature.every((byte, i) => bytes[at + i] === byte),
  );
  if (image) {
    throw new DomainError(
      "unprocessable",
      "ocr-not-available",
      `This is a ${image.format} image; reading terms from images needs OCR, which this service does not have. Upload a PDF with a text layer, or enter the terms by hand.`,
      { format: image.format },
    );
  }
  if (!isPdf(bytes)) {
    throw new DomainError("unprocessable", "not-a-pdf", "The file is neither a PDF nor an image");
  }
  const text = pdfText(bytes);
  if (!text) {
    throw new DomainError(
      "unprocessable",
      "no-text-layer",
      "The PDF has no readable text layer (a scan, or glyph-indexed fonts); without OCR no terms can be read from it",
    );
  }
  return { method: "pdf-text", textLines: text.split("\n").length, ...extractContractTerms(text) };
}
