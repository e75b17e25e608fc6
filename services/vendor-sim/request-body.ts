import type { IncomingMessage } from "node:http";

/** A simulator request's raw body as text; past `maxBytes` a 413 for Koa to answer. */
export async function readBody(request: IncomingMessage, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw Object.assign(new Error("body too large"), { status: 413, expose: true });
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}
