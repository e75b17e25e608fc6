/** A line of text read from an image, with the reader's confidence in it (0 to 100). */
export interface RecognizedLine {
  text: string;
  confidence: number;
}

/**
 * Reads the text of a scanned or photographed contract (POST /v1/contracts/analyze-pdf). The
 * embedded default is Tesseract in-process (tesseract-contract-reader.ts); a deployment without
 * it answers images with 422.
 */
export interface ContractImageReader {
  read(image: Uint8Array): Promise<RecognizedLine[]>;
  close(): Promise<void>;
}
