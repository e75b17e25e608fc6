import type { IncomingMessage } from "node:http";
import type { Context } from "koa";
import type { Clock } from "../../../src/runtime/clock.js";

/**
 * What every building block of the stand-in shares: the clock, the randomness of backoffs, the way to call
 * the attached app (daprd's app channel) and the bookkeeping that lets `idle()` and `close()` wait
 * for deliveries and callbacks in flight.
 */
export interface AppChannel {
  readonly clock: Clock;
  readonly random: () => number;
  readonly appId: string;
  readonly attached: boolean;
  callApp(method: string, path: string, body?: Uint8Array | string, contentType?: string): Promise<Response>;
  /** Counts `work` as running until it settles. */
  track<T>(work: Promise<T>): void;
  /** Runs `fn` after `ms` on the clock, unless the stand-in closes first. */
  after(ms: number, fn: () => void): void;
  readonly closed: boolean;
}

export const SEP = "||";

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export function parseJson(buffer: Buffer): unknown {
  const text = buffer.toString("utf8");
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function daprError(ctx: Context, status: number, errorCode: string, message: string): void {
  ctx.status = status;
  ctx.body = { errorCode, message };
}
