/**
 * W3C Trace Context for every request (spec 2.9, part 7): the caller's `traceparent` is continued
 * when valid and minted otherwise, the response carries it back, and the trace id becomes the
 * correlation URN that problems name as `instance`, so support can follow one request end to end.
 */
import { randomFillSync } from "node:crypto";
import type { Context } from "koa";
import type { Logger } from "pino";

export interface TraceContext {
  /** 32 lowercase hex digits, shared by every hop of the trace. */
  traceId: string;
  /** 16 lowercase hex digits: this service's span for the request. */
  spanId: string;
  /** The caller's span, when the request arrived with a valid `traceparent`. */
  parentSpanId: string | undefined;
  /** Trace flags as two hex digits (`01` = sampled). */
  flags: string;
  /** `urn:trace:<trace id>`: the problem `instance` and the correlation URN handed to use cases. */
  correlationUrn: string;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ALL_ZERO = /^0+$/;

/** The caller's trace, or undefined when the header is absent or breaks the W3C rules. */
export function parseTraceparent(
  header: string | undefined,
): { traceId: string; parentSpanId: string; flags: string } | undefined {
  if (!header) return undefined;
  const match = TRACEPARENT.exec(header.trim());
  if (!match) return undefined;
  const [, version, traceId, parentSpanId, flags, rest] = match as unknown as [
    string,
    string,
    string,
    string,
    string,
    string | undefined,
  ];
  // Version ff is forbidden; version 00 has exactly four fields, later versions may append more.
  if (version === "ff" || (version === "00" && rest !== undefined)) return undefined;
  if (ALL_ZERO.test(traceId) || ALL_ZERO.test(parentSpanId)) return undefined;
  return { traceId, parentSpanId, flags };
}

export function formatTraceparent(trace: Pick<TraceContext, "traceId" | "spanId" | "flags">): string {
  return `00-${trace.traceId}-${trace.spanId}-${trace.flags}`;
}

export function correlationUrnOf(traceId: string): string {
  return `urn:trace:${traceId}`;
}

/** Continues the caller's trace with a fresh span, or starts a new sampled trace. */
export function startTrace(traceparentHeader: string | undefined): TraceContext {
  const incoming = parseTraceparent(traceparentHeader);
  const traceId = incoming?.traceId ?? randomHex(16);
  return {
    traceId,
    spanId: randomHex(8),
    parentSpanId: incoming?.parentSpanId,
    flags: incoming?.flags ?? "01",
    correlationUrn: correlationUrnOf(traceId),
  };
}

/**
 * Ids are cut from a pool of random bytes refilled a few KiB at a time (as crypto.randomUUID
 * does), so a request costs no call into the random generator of its own.
 */
const randomPool = Buffer.alloc(4096);
let randomPoolOffset = randomPool.length;

function randomHex(bytes: number): string {
  for (;;) {
    if (randomPoolOffset + bytes > randomPool.length) {
      randomFillSync(randomPool);
      randomPoolOffset = 0;
    }
    const hex = randomPool.toString("hex", randomPoolOffset, randomPoolOffset + bytes);
    randomPoolOffset += bytes;
    if (!ALL_ZERO.test(hex)) return hex;
  }
}

/** What the tracing middleware leaves in `ctx.state`. */
export interface TracedState {
  trace: TraceContext;
  /**
   * A child of the configured logger bound to this request's trace; handlers get it as `input.log`
   * and hand it on. The trace travels explicitly rather than in an AsyncLocalStorage: on Node 20 an
   * enabled AsyncLocalStorage installs promise hooks that cost every request about a third of its CPU.
   * Made on first use: most requests log nothing, and a child logger writes out its bindings.
   */
  readonly log: Logger | undefined;
}

/** The request's state as tracing starts it. */
class RequestState implements TracedState {
  private child: Logger | undefined;

  constructor(
    readonly trace: TraceContext,
    private readonly logger: Logger | undefined,
  ) {}

  get log(): Logger | undefined {
    if (this.child === undefined && this.logger !== undefined) {
      this.child = this.logger.child({ traceId: this.trace.traceId, spanId: this.trace.spanId });
    }
    return this.child;
  }
}

export function traceOf(ctx: Context): TraceContext {
  const trace = (ctx.state as Partial<TracedState>).trace;
  if (!trace) throw new Error("tracing middleware is not installed before this point");
  return trace;
}

/** Starts or continues the trace, answers with `traceparent`, and gives the request its trace and logger. */
export function traceRequest(ctx: Context, logger: Logger | undefined): void {
  const trace = startTrace(ctx.get("traceparent") || undefined);
  // What an earlier middleware put in the state is kept.
  ctx.state = Object.assign(new RequestState(trace, logger), ctx.state);
  ctx.set("traceparent", formatTraceparent(trace));
}
