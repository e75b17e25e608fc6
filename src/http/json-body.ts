/**
 * Reads a JSON request body (RFC 8259) straight from the request stream: the parsed value and the
 * raw text, which a signed callback's HMAC covers (spec 4.5). Every request with a body pays for
 * this, so it is one pass over the bytes with no per-request options or wrappers; a body that is
 * not acceptable is refused with a problem:
 *
 *   413 body-too-large       declared or sent past the limit (nothing more is read; the unread
 *                            rest is discarded by src/http/unread-body.ts)
 *   415 unsupported-encoding a Content-Encoding other than identity, gzip, deflate or br
 *   400 incomplete-body      the stream ended or was aborted before the declared length
 *   400 malformed-json       not JSON, not an object or array, or an object with a `__proto__`
 *                            member (a prototype-poisoning attempt)
 *
 * An empty body is `{}`. A leading byte-order mark is dropped.
 */
import type { IncomingMessage } from "node:http";
import type { Readable } from "node:stream";
import { createBrotliDecompress, createUnzip } from "node:zlib";
import { ProblemError } from "./errors.js";

export interface JsonBody {
  parsed: unknown;
  raw: string;
}

/** Bodies are JSON objects or arrays: the first character past leading whitespace opens one. */
const OBJECT_OR_ARRAY = /^[ \t\n\r]*[[{]/;
/** `"__proto__":` as JSON may spell it, escapes included: only such a text is scanned for the member. */
const PROTO_MEMBER =
  /"(?:_|\\u005[Ff])(?:_|\\u005[Ff])(?:p|\\u0070)(?:r|\\u0072)(?:o|\\u006[Ff])(?:t|\\u0074)(?:o|\\u006[Ff])(?:_|\\u005[Ff])(?:_|\\u005[Ff])"\s*:/;

export async function readJsonBody(request: IncomingMessage, limitBytes: number): Promise<JsonBody> {
  const raw = await readText(request, limitBytes);
  const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  if (text === "") return { parsed: {}, raw };
  if (!OBJECT_OR_ARRAY.test(text)) throw malformed();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw malformed();
  }
  if (PROTO_MEMBER.test(text) && hasProtoMember(parsed)) throw malformed();
  return { parsed, raw };
}

function readText(request: IncomingMessage, limitBytes: number): Promise<string> {
  // Content codings are case-insensitive tokens (RFC 9110 8.4.1).
  const encoding = (request.headers["content-encoding"] ?? "identity").trim().toLowerCase();
  const declared = request.headers["content-length"];
  // The declared length counts the bytes as sent, so it bounds only a body sent as it is.
  const length = encoding === "identity" && declared !== undefined ? Number(declared) : undefined;
  if (length !== undefined && length > limitBytes) return Promise.reject(tooLarge());
  const stream = decoded(request, encoding);
  return new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const cleanup = () => {
      stream.off("data", onData);
      stream.off("end", onEnd);
      stream.off("error", onError);
      request.off("aborted", onAborted);
    };
    const fail = (error: unknown) => {
      cleanup();
      if (stream !== request) stream.destroy();
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limitBytes) fail(tooLarge());
      else chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      if (length !== undefined && received !== length) reject(incomplete());
      else
        resolve(chunks.length === 1 ? chunks[0]!.toString("utf8") : Buffer.concat(chunks).toString("utf8"));
    };
    const onError = () => fail(stream === request ? incomplete() : malformed());
    const onAborted = () => fail(incomplete());
    stream.on("data", onData);
    stream.once("end", onEnd);
    stream.once("error", onError);
    request.once("aborted", onAborted);
  });
}

function decoded(request: IncomingMessage, encoding: string): Readable {
  switch (encoding) {
    case "identity":
      return request;
    case "gzip":
    case "deflate":
      return request.pipe(createUnzip());
    case "br":
      return request.pipe(createBrotliDecompress());
    default:
      throw invalid(415, "unsupported-encoding", "The request body encoding is not supported");
  }
}

function hasProtoMember(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (Object.hasOwn(value, "__proto__")) return true;
  return Object.values(value).some(hasProtoMember);
}

function malformed(): ProblemError {
  return invalid(400, "malformed-json", "The request body is not valid JSON (an object or an array)");
}

function tooLarge(): ProblemError {
  return invalid(413, "body-too-large", "The request body is larger than this API accepts");
}

function incomplete(): ProblemError {
  return invalid(400, "incomplete-body", "The request body ended before its declared length");
}

function invalid(status: number, code: string, detail: string): ProblemError {
  return new ProblemError({ status, category: "invalid", code, detail });
}
