import busboy from "busboy";
import type { Context } from "koa";
import { ProblemError } from "../../src/http/errors.js";

/** Large enough for a manifest of thousands of passengers; the rest is refused with 413. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/**
 * Reads the bytes of the file part named `field` of a multipart/form-data request straight from the request
 * stream (the HTTP layer parses JSON bodies only and leaves upload routes' bodies unread). Other
 * parts are drained and ignored; a missing part is 400, a larger one 413, another media type 415.
 */
export async function readFilePart(
  ctx: Context,
  field: string,
  maxBytes = MAX_UPLOAD_BYTES,
): Promise<Uint8Array> {
  if (!ctx.is("multipart/form-data")) {
    throw new ProblemError({
      status: 415,
      category: "invalid",
      code: "unsupported-media-type",
      detail: `Send the file as multipart/form-data with a part named ${field}`,
    });
  }
  const file = await new Promise<Uint8Array | undefined>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: ctx.req.headers, limits: { files: 1, fileSize: maxBytes } });
    } catch (error) {
      reject(malformed(error));
      return;
    }
    let found: Promise<Uint8Array> | undefined;
    parser.on("file", (name: string, stream) => {
      if (name !== field || found) {
        stream.resume();
        return;
      }
      found = new Promise<Uint8Array>((resolveFile, rejectFile) => {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("limit", () => rejectFile(tooLarge(maxBytes)));
        stream.on("error", rejectFile);
        stream.on("end", () => resolveFile(Buffer.concat(chunks)));
      });
      // Settled when the parser finishes; a rejection here must not go unhandled meanwhile.
      found.catch(() => undefined);
    });
    parser.on("error", (error) => reject(malformed(error)));
    parser.on("close", () => {
      if (found) found.then(resolve, reject);
      else resolve(undefined);
    });
    ctx.req.pipe(parser);
  });
  if (!file) {
    throw new ProblemError({
      status: 400,
      category: "invalid",
      code: "file-required",
      detail: `The request has no file part named ${field}`,
      extensions: { errors: [{ in: "body", field: `/${field}`, message: "is required" }] },
    });
  }
  return file;
}

function tooLarge(maxBytes: number): ProblemError {
  return new ProblemError({
    status: 413,
    category: "invalid",
    code: "file-too-large",
    detail: `The file is larger than ${maxBytes} bytes`,
  });
}

function malformed(error: unknown): ProblemError {
  return new ProblemError({
    status: 400,
    category: "invalid",
    code: "malformed-multipart",
    detail: `The multipart body cannot be read: ${error instanceof Error ? error.message : String(error)}`,
  });
}
