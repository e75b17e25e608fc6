/**
 * The simulators as a separate app for the distributed runtime: each vendor answers under its own
 * prefix (`/vendor-a/oauth/token`, `/vendor-b/api/v2/...`) with exactly the code the in-process
 * transport calls. `/<vendor>/_sim/...` lets tests and demos inject faults from outside.
 */
import type { IncomingMessage } from "node:http";
import Koa from "koa";
import type { WireMethod, WireRequest } from "../../src/vendors/wire.js";
import type { FaultKind, FaultSettings } from "./fault-injection.js";
import { ConnectionReset } from "./simulated-failure.js";
import type { VendorSimulator } from "./vendor-simulator.js";
import { readBody } from "./request-body.js";

const WIRE_METHODS: readonly string[] = ["GET", "POST", "DELETE"];
const MAX_BODY_BYTES = 1_000_000;

export function createVendorSimApp(sims: readonly VendorSimulator[]): Koa {
  const app = new Koa();
  const byId = new Map(sims.map((sim) => [sim.id, sim]));

  app.use(async (ctx) => {
    if (ctx.path === "/healthz") {
      ctx.body = { status: "ok", vendors: [...byId.keys()] };
      return;
    }
    const [, vendorId = "", ...rest] = ctx.path.split("/");
    const sim = byId.get(vendorId as VendorSimulator["id"]);
    if (!sim || !WIRE_METHODS.includes(ctx.method)) {
      ctx.status = 404;
      ctx.body = { error: "unknown vendor or method" };
      return;
    }
    const path = `/${rest.join("/")}`;
    const body = await readBody(ctx.req, MAX_BODY_BYTES);
    if (path.startsWith("/_sim/")) {
      const command = parseCommand(body);
      ctx.status = command === undefined ? 400 : control(sim, path, command) ? 204 : 404;
      return;
    }
    const request: WireRequest = {
      method: ctx.method as WireMethod,
      path: ctx.querystring ? `${path}?${ctx.querystring}` : path,
      headers: lowerCaseHeaders(ctx.headers),
      ...(body ? { body } : {}),
    };
    try {
      const response = await sim.handle(request);
      ctx.status = response.status;
      for (const [name, value] of Object.entries(response.headers)) ctx.set(name, value);
      ctx.body = response.body;
    } catch (error) {
      if (!(error instanceof ConnectionReset)) throw error;
      ctx.respond = false;
      ctx.req.socket.destroy();
    }
  });
  return app;
}

type ControlCommand = { kind?: FaultKind; times?: number; hotelKey?: string; full?: boolean } & FaultSettings;

function parseCommand(body: string): ControlCommand | undefined {
  if (!body) return {};
  try {
    const parsed: unknown = JSON.parse(body);
    return typeof parsed === "object" && parsed !== null ? (parsed as ControlCommand) : undefined;
  } catch {
    return undefined;
  }
}

/** Applies one fault-injection command; false when the path names none. */
function control(sim: VendorSimulator, path: string, input: ControlCommand): boolean {
  switch (path) {
    case "/_sim/fail-next":
      if (input.kind) sim.failNext(input.kind, input.times ?? 1);
      return true;
    case "/_sim/hotel-full":
      if (input.hotelKey) sim.markHotelFull(input.hotelKey, input.full ?? true);
      return true;
    case "/_sim/faults":
      sim.configureFaults(input);
      return true;
    case "/_sim/revoke-tokens":
      sim.revokeTokens();
      return true;
    default:
      return false;
  }
}

function lowerCaseHeaders(headers: IncomingMessage["headers"]): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) result[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return result;
}
