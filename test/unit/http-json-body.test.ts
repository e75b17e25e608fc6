import type { IncomingMessage } from "node:http";
import { PassThrough } from "node:stream";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { ProblemError } from "../../src/http/errors.js";
import { readJsonBody } from "../../src/http/json-body.js";

/** A request stream carrying `chunks` under `headers`, ended unless told otherwise. */
function requestOf(
  headers: Record<string, string>,
  chunks: (string | Buffer)[],
  end = true,
): IncomingMessage {
  const stream = new PassThrough() as unknown as IncomingMessage & PassThrough;
  Object.assign(stream, { headers });
  for (const chunk of chunks) stream.write(chunk);
  if (end) stream.end();
  return stream;
}

function lengthOf(text: string | Buffer): Record<string, string> {
  return { "content-length": String(Buffer.byteLength(text)) };
}

async function refusal(read: Promise<unknown>): Promise<{ status: number; code: string }> {
  const error = await read.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProblemError);
  const problem = error as ProblemError;
  return { status: problem.status, code: problem.code };
}

describe("JSON request bodies", () => {
  it("gives the parsed value and the raw text a signature covers", async () => {
    const raw = '{"card_id":"c1","amount":{"value":5}}';
    expect(await readJsonBody(requestOf(lengthOf(raw), [raw.slice(0, 9), raw.slice(9)]), 1024)).toEqual({
      parsed: { card_id: "c1", amount: { value: 5 } },
      raw,
    });
  });

  it("reads an empty body as an empty object and drops a byte-order mark", async () => {
    expect((await readJsonBody(requestOf({}, []), 1024)).parsed).toEqual({});
    expect((await readJsonBody(requestOf({}, ['\uFEFF{"a":1}']), 1024)).parsed).toEqual({ a: 1 });
  });

  it("decompresses a gzip body and refuses an encoding it does not know", async () => {
    const zipped = gzipSync('{"a":[1,2]}');
    expect((await readJsonBody(requestOf({ "content-encoding": "gzip" }, [zipped]), 1024)).parsed).toEqual({
      a: [1, 2],
    });
    expect((await readJsonBody(requestOf({ "content-encoding": "GZip" }, [zipped]), 1024)).parsed).toEqual({
      a: [1, 2],
    });
    expect(await refusal(readJsonBody(requestOf({ "content-encoding": "zstd" }, ["{}"]), 1024))).toEqual({
      status: 415,
      code: "unsupported-encoding",
    });
  });

  it("refuses a body past the limit, declared or sent", async () => {
    const big = JSON.stringify({ notes: "x".repeat(100) });
    expect(await refusal(readJsonBody(requestOf(lengthOf(big), [], false), 64))).toEqual({
      status: 413,
      code: "body-too-large",
    });
    expect(await refusal(readJsonBody(requestOf({ "transfer-encoding": "chunked" }, [big]), 64))).toEqual({
      status: 413,
      code: "body-too-large",
    });
  });

  it("refuses a body shorter than its declared length", async () => {
    expect(await refusal(readJsonBody(requestOf({ "content-length": "20" }, ['{"a":1}']), 1024))).toEqual({
      status: 400,
      code: "incomplete-body",
    });
  });

  it("refuses text that is not a JSON object or array, and a __proto__ member at any depth", async () => {
    for (const body of [
      '{"a": ',
      '"text"',
      "42",
      '{"a":{"__proto__":{"admin":true}}}',
      '{"\\u005f_proto__":1}',
    ]) {
      expect(await refusal(readJsonBody(requestOf(lengthOf(body), [body]), 1024))).toEqual({
        status: 400,
        code: "malformed-json",
      });
    }
    expect((await readJsonBody(requestOf({}, ['{"note":"__proto__"}']), 1024)).parsed).toEqual({
      note: "__proto__",
    });
  });
});
