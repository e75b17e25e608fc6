/**
 * OCR with tesseract.js in this process: the WebAssembly core from tesseract.js-core and the
 * English model from @tesseract.js-data/eng, both npm packages, so nothing is downloaded at run time
 * (without `langPath` tesseract.js would fetch the model from a CDN). One worker, created on the
 * first image and kept: it takes about half a second to start and reads a page in about one.
 */
import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createWorker, type Worker } from "tesseract.js";
import type { ContractImageReader, RecognizedLine } from "./contract-image-reader.js";

const require = createRequire(import.meta.url);

/** The integer-quantised "best" model: as accurate as "best" on printed text, and faster. */
const MODEL_FOLDER = "4.0.0_best_int";

export class TesseractContractReader implements ContractImageReader {
  private worker: Promise<Worker> | undefined;

  async read(image: Uint8Array): Promise<RecognizedLine[]> {
    const worker = await this.started();
    const { data } = await worker.recognize(Buffer.from(image), {}, { blocks: true, text: true });
    return (data.blocks ?? []).flatMap((block) =>
      block.paragraphs.flatMap((paragraph) =>
        paragraph.lines
          .map((line) => ({ text: line.text.trim(), confidence: line.confidence }))
          .filter((line) => line.text !== ""),
      ),
    );
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await (await worker).terminate();
  }

  private started(): Promise<Worker> {
    this.worker ??= (() => {
      const cachePath = join(tmpdir(), "disruption-ocr");
      mkdirSync(cachePath, { recursive: true });
      const langPath = join(dirname(require.resolve("@tesseract.js-data/eng/package.json")), MODEL_FOLDER);
      return createWorker("eng", 1, { langPath, cachePath, gzip: true });
    })();
    return this.worker;
  }
}
